//! Speed of the local store (`prospect::store`), against the targets of its issue:
//! 1. storing a 1,000-company lookup answer as the session does (`Bought::entities` of the typed
//!    answer, then `record_purchase` of the typed answer: its full JSON and the 1,000
//!    companies, real records of the embedded sandbox), into a store that already holds them
//!    (every row an update) and into a new one (every row an insert): ≤ 50 ms;
//! 2. finding 1,000 stored domains (`companies_by_domains`) in a store of 100,000 companies:
//!    ≤ 5 ms (synthetic records; also shown for the 1,000 real records);
//! 3. opening (`Store::open`) a store file of 100,000 companies and 1,000,000 people: ≤ 50 ms.
//!
//! Issue 15 (the spend engine) adds:
//! 4. keeping a 1,000-company lookup answer as the engine does (`Store::keep`: the raw bytes
//!    zstd-compressed and the 1,000 entities, one transaction);
//! 5. planning a 10,000-domain lookup (`core::engine::plan`, half of them stored) against the
//!    store of 100,000 companies: ≤ 20 ms (the plan asks a sandbox in this process for the
//!    balance, as it asks the service).
//!
//! Issue 16 (what you own, everywhere) adds:
//! 6. joining the stored contacts into a 1,000-person page (`Store::join_contacts`: the
//!    freshest email and phone of each, from a store of 100,000 revealed emails and 50,000
//!    phones; half the page revealed): ≤ 5 ms;
//! 7. checking a 1,000-row page against 10,000 suppressed entries (`Store::suppressed_among`
//!    of the page's 1,000 domains, 100 of them suppressed): ≤ 2 ms.
//!
//! Issue 17 (the team store) times the same on PostgreSQL (a throwaway server this benchmark
//! starts with `initdb` and `pg_ctl`, on loopback; skipped with a line when PostgreSQL is not
//! installed):
//! 8. storing a 1,000-company lookup answer as the spend engine keeps it (as 4.): ≤ 150 ms
//!    (also shown: as `record_purchase` does, as 1.);
//! 9. finding 1,000 of 100,000 stored domains (as 2.): ≤ 20 ms;
//! 10. a claim round trip (`Store::claim` of one key, one transaction): ≤ 2 ms.
//!
//! The files are built once, in a temporary folder, before anything is timed.
//! Run: `cargo bench --bench store -- --quick`.

// The process allocator (mimalloc, as the binary's) and the CPU clock come from the shared
// helpers.
#[path = "support/mod.rs"]
mod support;

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use chrono::Utc;
use criterion::{Criterion, criterion_group, criterion_main};
use prospect::api::client::Endpoint;
use prospect::api::cost::Cost;
use prospect::api::types::company::Company;
use prospect::api::types::lookup::{LookupCompaniesRequest, LookupCompaniesResponse};
use prospect::api::types::person::Person;
use prospect::sandbox::dataset::load::Db;
use prospect::store::Bought;
use prospect::store::{Entities, NewPurchase, Store};
use serde_json::json;

const COMPANIES: usize = 100_000;
const PEOPLE: usize = 1_000_000;
/// Rows per transaction while building the big file.
const CHUNK: usize = 100_000;

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn purchase<A: serde::Serialize + Sync + std::any::Any>(
    store: &mut Store,
    endpoint: Endpoint,
    response: &A,
    entities: &Entities,
) {
    store
        .record_purchase(&NewPurchase {
            endpoint,
            request: &json!({}),
            response,
            charged: Cost::ZERO,
            target: "bench",
            at: Utc::now(),
            entities,
        })
        .expect("record_purchase");
}

/// Stores `answer` as `Session::buy` does: the entities of the typed answer, then the answer
/// row and its company upserts in one transaction, committed.
fn record_lookup(store: &mut Store, answer: &LookupCompaniesResponse) {
    let entities = answer.entities(Utc::now());
    purchase(store, Endpoint::LookupCompanies, answer, &entities);
}

/// Keeps `answer` (its bytes `raw`) as the spend engine does: raw bytes (zstd) + entities,
/// one transaction.
fn keep_lookup(store: &mut Store, answer: &LookupCompaniesResponse, raw: &[u8]) {
    let entities = answer.entities(Utc::now());
    store
        .keep(&prospect::store::Kept {
            endpoint: Endpoint::LookupCompanies,
            request: &json!({}),
            raw,
            charged: Cost::ZERO,
            target: "bench",
            at: Utc::now(),
            entities: &entities,
            job: None,
            settles: &[],
            page: None,
            whole: true,
        })
        .expect("keep");
}

/// CPU time this process has used (all its threads, ended ones included), ms
/// ([`support::self_cpu`]).
fn cpu_ms() -> Option<f64> {
    support::cpu_of("/proc/self/stat").map(|s| s * 1000.0)
}

/// Runs `f` `n` times and prints the fastest and the median wall time and the CPU time per run
/// (all threads): on a machine shared with other work the criterion times grow with its load,
/// the fastest run and the CPU time much less.
fn spot(name: &str, n: usize, mut f: impl FnMut()) {
    let mut walls = Vec::with_capacity(n);
    let cpu0 = cpu_ms();
    for _ in 0..n {
        let t = Instant::now();
        f();
        walls.push(ms(t.elapsed()));
    }
    let cpu = cpu0.zip(cpu_ms()).map(|(a, b)| (b - a) / n as f64);
    walls.sort_by(f64::total_cmp);
    eprintln!(
        "store: {name}: fastest {:.1} ms, median {:.1} ms, CPU {} per run ({n} runs)",
        walls[0],
        walls[n / 2],
        cpu.map_or("?".into(), |c| format!("{c:.1} ms"))
    );
}

fn synthetic_domain(i: usize) -> String {
    format!("company-{i:06}.example")
}

/// A real lookup answer of 1,000 companies from the embedded sandbox (spread over its
/// dataset), typed as the client decodes it, with the domains asked.
fn real_answer() -> (Vec<String>, LookupCompaniesResponse) {
    let db = Db::load_embedded().expect("embedded dataset");
    let domains: Vec<String> = (0..1000)
        .map(|i| {
            db.company_row_at(i * db.company_count() / 1000)
                .expect("row")
                .domain
                .clone()
        })
        .collect();
    let answer = db.lookup_companies(&LookupCompaniesRequest {
        domains: domains.clone(),
        fields: None,
    });
    let answer = serde_json::from_value(serde_json::to_value(&answer).expect("answer JSON"))
        .expect("typed answer");
    (domains, answer)
}

/// The synthetic companies of `range` (by index).
fn synthetic_companies(range: std::ops::Range<usize>) -> Entities {
    Entities::companies(
        range
            .map(|i| Company {
                domain: synthetic_domain(i),
                name: Some(format!("Company {i}")),
                year_founded: Some(1950 + (i % 70) as i64),
                ..Default::default()
            })
            .collect(),
    )
}

/// A store file of `COMPANIES` synthetic companies and `PEOPLE` synthetic people, plus the
/// real companies of `real`, each chunk in one transaction.
fn build_big(path: &Path, real: &Entities) {
    let t = Instant::now();
    let mut store = Store::open(path).expect("open");
    let empty = json!({});
    for start in (0..COMPANIES).step_by(CHUNK) {
        purchase(
            &mut store,
            Endpoint::LookupCompanies,
            &empty,
            &synthetic_companies(start..(start + CHUNK).min(COMPANIES)),
        );
    }
    purchase(&mut store, Endpoint::LookupCompanies, &empty, real);
    let companies_done = t.elapsed();
    for start in (0..PEOPLE).step_by(CHUNK) {
        let people = (start..(start + CHUNK).min(PEOPLE))
            .map(|i| Person {
                id: format!("{i:024x}"),
                domain: synthetic_domain(i % COMPANIES),
                name: Some(format!("Person {i}")),
                linkedin_url: Some(format!("https://www.linkedin.com/in/person-{i}")),
                ..Default::default()
            })
            .collect();
        purchase(
            &mut store,
            Endpoint::LookupPeople,
            &empty,
            &Entities::people(people),
        );
    }
    drop(store);
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    eprintln!(
        "store: built {COMPANIES} companies in {:.0} ms, {PEOPLE} people in {:.0} ms; file {:.0} MB",
        ms(companies_done),
        ms(t.elapsed() - companies_done),
        size as f64 / 1e6
    );
}

fn bench(c: &mut Criterion) {
    let (domains, answer) = real_answer();
    let entities = answer.entities(Utc::now());
    eprintln!(
        "store: lookup answer of {} companies, {:.1} MB of JSON",
        entities.companies.len(),
        serde_json::to_string(&answer).unwrap().len() as f64 / 1e6
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let big = dir.path().join("big.sqlite");
    build_big(&big, &entities);

    let mut g = c.benchmark_group("store");
    g.sample_size(10);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(3));

    // 1. One purchase as `Session::buy` makes it: the entities of the typed answer, then the
    //    answer row and 1,000 company upserts in one transaction, committed.
    let store_answer = |store: &mut Store| record_lookup(store, &answer);
    let mut small = Store::open(&dir.path().join("purchases.sqlite")).expect("open");
    spot("record_purchase_lookup_1000_companies", 30, || {
        store_answer(&mut small)
    });
    g.bench_function("record_purchase_lookup_1000_companies", |b| {
        b.iter(|| store_answer(&mut small))
    });
    drop(small);
    // The same into a store that does not hold these companies yet (every row an insert).
    let fresh = dir.path().join("fresh");
    let mut n = 0;
    g.bench_function("record_purchase_lookup_1000_new_companies", |b| {
        b.iter_batched(
            || {
                n += 1;
                Store::open(&fresh.join(format!("{n}.sqlite"))).expect("open")
            },
            |mut store| {
                store_answer(&mut store);
                store
            },
            criterion::BatchSize::PerIteration,
        )
    });

    // 2. 1,000 domains out of 100,000 (spread over the whole key range).
    let store = Store::open(&big).expect("open big");
    let synthetic: Vec<String> = (0..1000)
        .map(|i| synthetic_domain(i * COMPANIES / 1000))
        .collect();
    assert_eq!(store.companies_by_domains(&synthetic).unwrap().len(), 1000);
    let real_found = store.companies_by_domains(&domains).unwrap().len();
    eprintln!("store: {real_found} of the 1,000 real domains found");
    spot("companies_by_domains_1000_of_100000", 200, || {
        black_box(store.companies_by_domains(&synthetic).unwrap());
    });
    spot("companies_by_domains_1000_real_records", 100, || {
        black_box(store.companies_by_domains(&domains).unwrap());
    });
    g.bench_function("companies_by_domains_1000_of_100000", |b| {
        b.iter(|| black_box(store.companies_by_domains(&synthetic).unwrap()))
    });
    g.bench_function("companies_by_domains_1000_real_records", |b| {
        b.iter(|| black_box(store.companies_by_domains(&domains).unwrap()))
    });
    drop(store);

    // 4. Keeping the answer as the engine does: raw bytes (zstd) + entities, one transaction.
    let raw = serde_json::to_vec(&answer).unwrap();
    let mut kept = Store::open(&dir.path().join("kept.sqlite")).expect("open");
    let keep = |store: &mut Store| keep_lookup(store, &answer, &raw);
    spot("keep_lookup_1000_companies", 30, || {
        keep(&mut kept);
    });
    g.bench_function("keep_lookup_1000_companies", |b| b.iter(|| keep(&mut kept)));
    drop(kept);

    // 5. Planning a 10,000-domain lookup against 100,000 stored companies.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let session = rt.block_on(async {
        let sb = prospect::sandbox::service::spawn(prospect::sandbox::service::SandboxConfig {
            accounts: vec![prospect::sandbox::service::accounts::AccountSpec::ample(
                "bench",
            )],
            rate_per_minute: 100_000_000,
            daily_limit: 100_000_000,
            ..Default::default()
        })
        .await
        .expect("sandbox");
        let client = prospect::api::client::Client::new(&sb.base_url, "bench").unwrap();
        sb.detach();
        prospect::core::session::Session::new(client, Store::open(&big).unwrap(), "bench")
    });
    let keys: Vec<String> = (0..10_000)
        .map(|i| {
            if i % 2 == 0 {
                synthetic_domain(i * 5)
            } else {
                format!("not-stored-{i}.example")
            }
        })
        .collect();
    let action = prospect::core::engine::Action::LookupCompanies {
        keys: prospect::core::engine::KeySource::List(keys),
    };
    let plan = || {
        rt.block_on(prospect::core::engine::plan(
            &session,
            &action,
            prospect::core::session::Freshness::Stored,
        ))
        .expect("plan")
    };
    let p = plan();
    assert_eq!((p.owned, p.to_buy), (5_000, 5_000));
    spot("plan_lookup_10000_of_100000", 30, || {
        black_box(plan());
    });
    g.bench_function("plan_lookup_10000_of_100000", |b| {
        b.iter(|| black_box(plan()))
    });

    // 6. Joining stored contacts into a 1,000-person page.
    let mut contacts = Store::open(&dir.path().join("contacts.sqlite")).expect("open");
    let revealed = chrono::Utc::now();
    for chunk in (0..100_000usize).collect::<Vec<_>>().chunks(10_000) {
        let batch: Vec<prospect::store::Contact> = chunk
            .iter()
            .flat_map(|&i| {
                let email = prospect::store::Contact {
                    person_id: format!("person-{i:06}"),
                    kind: prospect::common::ContactKind::Email,
                    email: Some(format!("first.last{i}@company{}.com", i / 40)),
                    phones: Vec::new(),
                    status: "verified".into(),
                    revealed_at: revealed,
                };
                let phone = (i % 2 == 0).then(|| prospect::store::Contact {
                    person_id: format!("person-{i:06}"),
                    kind: prospect::common::ContactKind::Phone,
                    email: None,
                    phones: vec![format!("+4512{i:06}")],
                    status: "verified".into(),
                    revealed_at: revealed,
                });
                std::iter::once(email).chain(phone)
            })
            .collect();
        contacts.put_contacts(&batch, None).expect("contacts");
    }
    // Every other person of the page revealed (ids 0, 2, 4, … stored; odd ones are not).
    let page: Vec<Person> = (0..1000)
        .map(|i| Person {
            id: if i % 2 == 0 {
                format!("person-{:06}", i * 37)
            } else {
                format!("never-revealed-{i}")
            },
            ..Person::default()
        })
        .collect();
    let join = |page: &mut Vec<Person>| {
        contacts
            .join_contacts(&mut page.iter_mut().collect::<Vec<_>>())
            .expect("join")
    };
    assert_eq!(join(&mut page.clone()), 500);
    spot("join_contacts_1000_of_100000", 30, || {
        black_box(join(&mut page.clone()));
    });
    g.bench_function("join_contacts_1000_of_100000", |b| {
        b.iter_batched(
            || page.clone(),
            |mut p| black_box(join(&mut p)),
            criterion::BatchSize::SmallInput,
        )
    });

    // 7. Checking a 1,000-row page against 10,000 suppressed domains.
    let entries: Vec<(prospect::store::SuppressKind, String)> = (0..10_000)
        .map(|i| {
            (
                prospect::store::SuppressKind::Domain,
                format!("suppressed-{i:05}.example"),
            )
        })
        .collect();
    contacts
        .suppress("customers", "bench", &entries)
        .expect("suppress");
    let page_domains: Vec<String> = (0..1000)
        .map(|i| {
            if i % 10 == 0 {
                format!("suppressed-{:05}.example", i * 7)
            } else {
                format!("not-suppressed-{i}.example")
            }
        })
        .collect();
    let check = || {
        contacts
            .suppressed_among(prospect::store::SuppressKind::Domain, &page_domains)
            .expect("check")
    };
    assert_eq!(check().len(), 100);
    spot("suppressed_among_1000_of_10000", 30, || {
        black_box(check());
    });
    g.bench_function("suppressed_among_1000_of_10000", |b| {
        b.iter(|| black_box(check()))
    });

    // 3. Opening the big file (its teardown is not part of it).
    g.bench_function("open_100000_companies_1000000_people", |b| {
        b.iter_with_large_drop(|| Store::open(&big).expect("open"))
    });
    g.finish();
}

/// 8–10: the team store on a throwaway PostgreSQL server.
fn bench_team(c: &mut Criterion) {
    if prospect::store::pg_server::bin_dir().is_none() {
        eprintln!(
            "store: PostgreSQL is not installed (no initdb): the team-store benchmarks are skipped"
        );
        return;
    }
    let server = prospect::store::pg_server::TempServer::start().expect("PostgreSQL starts");
    let url = server.create_db("bench").expect("database");
    let mut store = Store::open_postgres(&url).expect("open the team store");
    let (_, answer) = real_answer();
    // 100,000 synthetic companies, 10,000 a transaction.
    let t = Instant::now();
    let empty = json!({});
    for start in (0..COMPANIES).step_by(10_000) {
        purchase(
            &mut store,
            Endpoint::LookupCompanies,
            &empty,
            &synthetic_companies(start..start + 10_000),
        );
    }
    eprintln!(
        "store: team store on PostgreSQL: built {COMPANIES} companies in {:.0} ms",
        ms(t.elapsed())
    );
    let mut g = c.benchmark_group("team_store");
    g.sample_size(10);
    g.warm_up_time(Duration::from_secs(1));
    g.measurement_time(Duration::from_secs(3));
    let store_answer = |store: &mut Store| record_lookup(store, &answer);
    spot("team: record_purchase_lookup_1000_companies", 20, || {
        store_answer(&mut store)
    });
    g.bench_function("record_purchase_lookup_1000_companies", |b| {
        b.iter(|| store_answer(&mut store))
    });
    let raw = serde_json::to_vec(&answer).unwrap();
    spot("team: keep_lookup_1000_companies", 20, || {
        keep_lookup(&mut store, &answer, &raw)
    });
    g.bench_function("keep_lookup_1000_companies", |b| {
        b.iter(|| keep_lookup(&mut store, &answer, &raw))
    });
    let synthetic: Vec<String> = (0..1000)
        .map(|i| synthetic_domain(i * COMPANIES / 1000))
        .collect();
    assert_eq!(store.companies_by_domains(&synthetic).unwrap().len(), 1000);
    spot("team: companies_by_domains_1000_of_100000", 50, || {
        black_box(store.companies_by_domains(&synthetic).unwrap());
    });
    g.bench_function("companies_by_domains_1000_of_100000", |b| {
        b.iter(|| black_box(store.companies_by_domains(&synthetic).unwrap()))
    });
    let mut n = 0u64;
    let mut claim = |store: &mut Store| {
        n += 1;
        let key = format!("company:bench-{n}.example");
        let now = Utc::now();
        let got = store
            .claim(
                &[key],
                "bench",
                None,
                now + chrono::Duration::seconds(60),
                now,
            )
            .expect("claim");
        black_box(got);
    };
    spot("team: claim_round_trip", 200, || claim(&mut store));
    g.bench_function("claim_round_trip", |b| b.iter(|| claim(&mut store)));
    g.finish();
    drop(store);
    drop(server);
}

criterion_group!(benches, bench, bench_team);
criterion_main!(benches);
