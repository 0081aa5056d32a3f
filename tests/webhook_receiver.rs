//! The webhook receiver over real HTTP on 127.0.0.1 with a real store: the secret is required,
//! a malformed body gets 422 with a `detail` array, a delivery is stored before its 200 (read
//! back at once through a second connection to the file), and a retried delivery is stored once.

use prospect::api::client::Client;
use prospect::api::types::webhooks::WebhookEvent;
use prospect::common::ContactKind;
use prospect::core::session::Session;
use prospect::core::webhooks::{Receiver, ReceiverConfig};
use prospect::store::Store;
use serde_json::{Value, json};

const SECRET: &str = "0123456789abcdef0123456789abcdef";

async fn setup(dir: &std::path::Path) -> (Session, Receiver) {
    let store = Store::open(&dir.join("s.sqlite")).unwrap();
    // The client is never used by the receiver; any base URL will do.
    let client = Client::new("http://127.0.0.1:9", "unused").unwrap();
    let session = Session::new(client, store, "sandbox");
    let rx = Receiver::start(ReceiverConfig::loopback(SECRET), session.store().clone())
        .await
        .unwrap();
    (session, rx)
}

fn http() -> reqwest::Client {
    reqwest::Client::builder().no_proxy().build().unwrap()
}

fn deliveries(dir: &std::path::Path) -> usize {
    // A second connection to the same file: what it sees was committed.
    Store::open(&dir.join("s.sqlite"))
        .unwrap()
        .deliveries(100)
        .unwrap()
        .len()
}

#[tokio::test]
async fn the_secret_is_required_and_nothing_is_stored_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let (_s, rx) = setup(dir.path()).await;
    let good = rx.url_for(WebhookEvent::RevealEmails);
    let body =
        json!({"emails": [{"personId": "p1", "address": "a@b.example", "status": "verified"}]});
    for url in [
        good.split('?').next().unwrap().to_string(),
        good.replace(SECRET, "wrong-secret-wrong-secret-wrong!!"),
        good.replace(SECRET, ""),
    ] {
        let r = http().post(&url).json(&body).send().await.unwrap();
        assert_eq!(r.status(), 403, "{url}");
    }
    assert_eq!(deliveries(dir.path()), 0);
}

#[tokio::test]
async fn a_malformed_body_gets_422_with_a_detail_array() {
    let dir = tempfile::tempdir().unwrap();
    let (_s, rx) = setup(dir.path()).await;
    let url = rx.url_for(WebhookEvent::RevealEmails);
    for bad in [
        "not json".to_string(),
        json!({"emails": "nope"}).to_string(),
        json!({"emails": [{"personId": 7}]}).to_string(),
    ] {
        let r = http()
            .post(&url)
            .header("content-type", "application/json")
            .body(bad.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 422, "{bad}");
        let v: Value = r.json().await.unwrap();
        let d = v["detail"].as_array().expect("detail array");
        assert!(
            !d.is_empty() && d[0]["loc"].is_array() && d[0]["msg"].is_string(),
            "{v}"
        );
    }
    // An unknown event is not a webhook of the service.
    let r = http()
        .post(url.replace("reveal_emails", "bogus_event"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    assert_eq!(deliveries(dir.path()), 0);
}

#[tokio::test]
async fn stored_before_the_200_and_a_retry_is_stored_once() {
    let dir = tempfile::tempdir().unwrap();
    let (s, rx) = setup(dir.path()).await;
    let mut sub = rx.subscribe();
    let url = rx.url_for(WebhookEvent::RevealPhones);
    let body = json!({"phones": [{"personId": "p9", "numbers": ["+1 555 0100"], "status": "verified"}], "creditsUsed": 1});
    let r = http().post(&url).json(&body).send().await.unwrap();
    assert_eq!(r.status(), 200);
    // Immediately after the 200, from another connection: the delivery and its contact.
    assert_eq!(deliveries(dir.path()), 1);
    let other = Store::open(&dir.path().join("s.sqlite")).unwrap();
    let c = other
        .contact("p9", ContactKind::Phone)
        .unwrap()
        .expect("contact stored");
    assert_eq!(c.phones, vec!["+1 555 0100".to_string()]);
    let d = sub.recv().await.unwrap();
    assert!(d.new && d.event == WebhookEvent::RevealPhones);
    // The service retries the same payload: 200 again, nothing new.
    for _ in 0..3 {
        let r = http().post(&url).json(&body).send().await.unwrap();
        assert_eq!(r.status(), 200);
        assert!(!sub.recv().await.unwrap().new);
    }
    assert_eq!(deliveries(dir.path()), 1);
    assert_eq!(
        s.stored_contacts(&["p9".into()], ContactKind::Phone)
            .await
            .len(),
        1
    );
}

#[tokio::test]
async fn a_body_over_the_limit_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.sqlite")).unwrap();
    let session = Session::new(
        Client::new("http://127.0.0.1:9", "unused").unwrap(),
        store,
        "sandbox",
    );
    let rx = Receiver::start(
        ReceiverConfig {
            body_limit: 1024,
            ..ReceiverConfig::loopback(SECRET)
        },
        session.store().clone(),
    )
    .await
    .unwrap();
    let big = json!({"emails": [], "pad": "x".repeat(4096)});
    let r = http()
        .post(rx.url_for(WebhookEvent::RevealEmails))
        .json(&big)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 413);
    assert_eq!(deliveries(dir.path()), 0);
}

/// Bodies that are not the event's shape with its required members get 422 and are not
/// stored (a 200 would make the service stop retrying and the results would be lost).
#[tokio::test]
async fn bodies_without_the_events_shape_get_422_and_are_not_stored() {
    let dir = tempfile::tempdir().unwrap();
    let (_s, rx) = setup(dir.path()).await;
    let cases = [
        (WebhookEvent::RevealEmails, json!([])),
        (WebhookEvent::RevealEmails, json!({})),
        (WebhookEvent::RevealEmails, json!({"emails": []})),
        (WebhookEvent::RevealPhones, json!([])),
        (WebhookEvent::RevealPhones, json!({})),
        (WebhookEvent::RevealPhones, json!({"creditsUsed": 1})),
        (WebhookEvent::PeopleSearchEmails, json!({"people": []})),
        (WebhookEvent::EnrichPersonEmail, json!({"id": "p1"})),
    ];
    for (event, body) in cases {
        let r = http()
            .post(rx.url_for(event))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 422, "{event} {body}");
        let v: Value = r.json().await.unwrap();
        assert!(v["detail"][0]["loc"].is_array(), "{v}");
    }
    assert_eq!(deliveries(dir.path()), 0);
    // The full shape is accepted.
    let r = http()
        .post(rx.url_for(WebhookEvent::RevealEmails))
        .json(&json!({"emails": [], "creditsUsed": 0}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
}

/// The secret is checked before any body byte is read: a request announcing 100 MB without
/// the secret is answered 403 at once, without sending any of it.
#[tokio::test]
async fn the_secret_is_checked_before_the_body_is_read() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let dir = tempfile::tempdir().unwrap();
    let (_s, rx) = setup(dir.path()).await;
    let mut sock = tokio::net::TcpStream::connect(rx.addr()).await.unwrap();
    sock.write_all(
        b"POST /webhooks/reveal_emails?secret=wrong HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 104857600\r\n\r\n",
    )
    .await
    .unwrap();
    let mut buf = vec![0u8; 1024];
    let n = tokio::time::timeout(std::time::Duration::from_secs(2), sock.read(&mut buf))
        .await
        .expect("answered without the body")
        .unwrap();
    let head = String::from_utf8_lossy(&buf[..n]);
    assert!(head.starts_with("HTTP/1.1 403"), "{head}");
}

/// 1,000 slow unauthenticated connections (a head sent a byte at a time, never finished) are
/// held open; a real delivery is answered and stored in under a second all the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_connections_do_not_delay_a_real_delivery() {
    use tokio::io::AsyncWriteExt;
    let dir = tempfile::tempdir().unwrap();
    let (_s, rx) = setup(dir.path()).await;
    let addr = rx.addr();
    let mut slow = Vec::new();
    for _ in 0..1000 {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(b"POST /webhooks/reveal_emails HTTP/1.1\r\nhost: x\r\n")
            .await
            .unwrap();
        slow.push(s);
    }
    // They trickle on, a byte each, while the real one goes.
    let trickle = tokio::spawn(async move {
        for _ in 0..20 {
            for s in slow.iter_mut() {
                let _ = s.write_all(b"x").await;
            }
            tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        slow
    });
    tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    let t0 = std::time::Instant::now();
    let r = http()
        .post(rx.url_for(WebhookEvent::RevealEmails))
        .json(&json!({"emails": [{"personId": "p1", "address": "a@b.example", "status": "verified"}], "creditsUsed": 1}))
        .send()
        .await
        .unwrap();
    let delay = t0.elapsed();
    eprintln!(
        "a real delivery beside 1,000 slow connections: {} ms",
        delay.as_millis()
    );
    assert_eq!(r.status(), 200);
    assert_eq!(deliveries(dir.path()), 1);
    assert!(delay < std::time::Duration::from_secs(1), "{delay:?}");
    drop(trickle.await);
}

/// A `prospect serve` on this machine (a loopback base URL) needs no webhook config: the
/// receiver listens on 127.0.0.1, as for the embedded sandbox.
#[test]
fn a_loopback_service_needs_no_webhook_config() {
    use prospect::core::config::{Config, ConnectArgs, Settings, Target};
    let dir = tempfile::tempdir().unwrap();
    let settings = Settings {
        config: Config::default(),
        warning: None,
        dirs: None,
        args: ConnectArgs {
            data_dir: Some(dir.path().to_path_buf()),
            ..ConnectArgs::default()
        },
    };
    for (url, loopback) in [
        ("http://127.0.0.1:8787", true),
        ("http://localhost:8787/", true),
        ("http://[::1]:8787", true),
        ("https://api.example.com", false),
    ] {
        let target = Target {
            base_url: url.into(),
            token: "t".into(),
            sandbox: false,
        };
        let got = prospect::core::webhooks::receiver_config(&settings, &target);
        assert_eq!(got.is_ok(), loopback, "{url}");
        if let Ok(cfg) = got {
            assert!(cfg.listen.ip().is_loopback());
        }
    }
}

/// Issue 38, item 14: a batch delivery whose `overallStatus` is outside openapi.json's enum
/// is refused (422 `enum`) and not stored, and the receiver's 422s speak pydantic's words
/// (`json_invalid` "JSON decode error", `missing` "Field required", `list_type`, `float_type`),
/// never serde's ("invalid type: …, expected …").
#[tokio::test]
async fn a_delivery_outside_the_schema_is_refused_in_pydantic_words() {
    let dir = tempfile::tempdir().unwrap();
    let (_s, rx) = setup(dir.path()).await;
    let cases = [
        (
            WebhookEvent::EnrichCompanies,
            json!({"companies": [], "overallStatus": "Exploded", "creditsUsed": 0}).to_string(),
            (
                "enum",
                "body.overallStatus",
                "Input should be 'Completed' or 'Incomplete'",
            ),
        ),
        (
            WebhookEvent::EnrichPeople,
            json!({"people": [], "overallStatus": 3, "creditsUsed": 0}).to_string(),
            (
                "enum",
                "body.overallStatus",
                "Input should be 'Completed' or 'Incomplete'",
            ),
        ),
        (
            WebhookEvent::RevealEmails,
            "not json".to_string(),
            ("json_invalid", "body.1", "JSON decode error"),
        ),
        (
            WebhookEvent::RevealEmails,
            json!({"emails": []}).to_string(),
            ("missing", "body.creditsUsed", "Field required"),
        ),
        (
            WebhookEvent::RevealEmails,
            json!({"emails": "nope", "creditsUsed": 0}).to_string(),
            ("list_type", "body.emails", "Input should be a valid list"),
        ),
        (
            WebhookEvent::RevealPhones,
            json!({"phones": [], "creditsUsed": "lots"}).to_string(),
            (
                "float_type",
                "body.creditsUsed",
                "Input should be a valid number",
            ),
        ),
    ];
    for (event, body, (kind, loc, msg)) in cases {
        let r = http()
            .post(rx.url_for(event))
            .header("content-type", "application/json")
            .body(body.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 422, "{event} {body}");
        let v: Value = r.json().await.unwrap();
        let e = &v["detail"][0];
        let got_loc: Vec<String> = e["loc"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().map_or_else(|| s.to_string(), str::to_string))
            .collect();
        assert_eq!(
            (e["type"].as_str(), got_loc.join("."), e["msg"].as_str()),
            (Some(kind), loc.to_string(), Some(msg)),
            "{event} {body}: {v}"
        );
    }
    assert_eq!(deliveries(dir.path()), 0);
    let r = http()
        .post(rx.url_for(WebhookEvent::EnrichCompanies))
        .json(&json!({"companies": [], "overallStatus": "Incomplete", "creditsUsed": 0}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "a status of the enum is kept");
}
