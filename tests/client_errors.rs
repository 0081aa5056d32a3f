//! Every status + detail text of SPEC.md §7 maps to its `ApiError` variant; messages never
//! contain the token.

use std::time::Duration;

use prospect::api::cost::CreditPool;
use prospect::api::error::{ApiError, detail, redact};
use serde_json::json;

fn answer(status: u16, body: serde_json::Value) -> ApiError {
    ApiError::from_response(status, None, body.to_string().as_bytes())
}

fn detail_body(text: &str) -> serde_json::Value {
    json!({ "detail": text })
}

#[test]
fn every_detail_text_of_section_7_maps_to_its_variant() {
    let cases: Vec<(u16, &str, ApiError)> = vec![
        (
            400,
            "Conflicting API tokens provided in query parameters and headers",
            ApiError::ConflictingTokens,
        ),
        (
            400,
            "Plan version not supported for this endpoint",
            ApiError::PlanNotSupported,
        ),
        (400, "Empty body", ApiError::EmptyBody),
        (400, "Empty `person` body", ApiError::EmptyPersonBody),
        (
            402,
            "Insufficient credits",
            ApiError::InsufficientCredits {
                pool: CreditPool::Standard,
            },
        ),
        (
            402,
            "Insufficient standard credits",
            ApiError::InsufficientCredits {
                pool: CreditPool::Standard,
            },
        ),
        (
            402,
            "Insufficient email credits",
            ApiError::InsufficientCredits {
                pool: CreditPool::Email,
            },
        ),
        (
            402,
            "Insufficient phone credits",
            ApiError::InsufficientCredits {
                pool: CreditPool::Phone,
            },
        ),
        (
            402,
            "Some email verifications are already in progress and might use all your remaining email credits. Please try again later.",
            ApiError::VerificationsInProgress {
                pool: CreditPool::Email,
            },
        ),
        (
            402,
            "Some phone verifications are already in progress and might use all your remaining phone credits. Please try again later.",
            ApiError::VerificationsInProgress {
                pool: CreditPool::Phone,
            },
        ),
        (
            403,
            "API token should be provided in headers or query parameters",
            ApiError::MissingToken,
        ),
        (
            403,
            "Current API token is not registered in our database",
            ApiError::UnknownToken,
        ),
        (
            404,
            "No matching record found",
            ApiError::NotFound {
                detail: Some("No matching record found".into()),
            },
        ),
    ];
    for (status, text, want) in cases {
        assert_eq!(answer(status, detail_body(text)), want, "{status} {text}");
        assert_eq!(want.status(), Some(status));
    }
}

#[test]
fn the_shared_detail_constants_are_the_spec_texts() {
    assert_eq!(
        answer(400, detail_body(detail::CONFLICTING_TOKENS)),
        ApiError::ConflictingTokens
    );
    assert_eq!(
        answer(402, detail_body(detail::EMAIL_VERIFICATIONS_IN_PROGRESS)),
        ApiError::VerificationsInProgress {
            pool: CreditPool::Email
        }
    );
    assert_eq!(
        detail::DATA_GATHERING_STARTED,
        "Data gathering process has started. Please try again later."
    );
}

#[test]
fn not_found_without_body_other_endpoints() {
    assert_eq!(
        ApiError::from_response(404, None, b""),
        ApiError::NotFound { detail: None }
    );
    assert_eq!(
        ApiError::from_response(404, None, b"null"),
        ApiError::NotFound { detail: None }
    );
}

#[test]
fn validation_422_keeps_the_detail_array() {
    let body = json!({"detail": [
        {"loc": ["body", "size"], "msg": "Input should be less than or equal to 10000",
         "type": "less_than_equal", "ctx": {"le": 10000}, "input": 20000},
        {"loc": ["body", "companiesFilters", "countries", 0], "msg": "Field required", "type": "missing"}
    ]});
    let ApiError::Validation { detail } = answer(422, body) else {
        panic!("not Validation")
    };
    assert_eq!(detail.len(), 2);
    assert_eq!(detail[0].kind, "less_than_equal");
    assert_eq!(detail[0].path(), "body.size");
    assert_eq!(detail[1].path(), "body.companiesFilters.countries.0");
    // A 422 that is not the §2.10 shape is still a Validation error, with no entries.
    assert_eq!(
        ApiError::from_response(422, None, b"oops"),
        ApiError::Validation { detail: vec![] }
    );
}

#[test]
fn rate_limit_server_and_unexpected() {
    assert_eq!(
        ApiError::from_response(429, Some(Duration::from_secs(7)), b""),
        ApiError::RateLimited {
            retry_after: Some(Duration::from_secs(7))
        }
    );
    assert_eq!(
        answer(500, detail_body("boom")),
        ApiError::Server {
            status: 500,
            detail: Some("boom".into())
        }
    );
    assert_eq!(
        ApiError::from_response(503, None, b"<html>down</html>"),
        ApiError::Server {
            status: 503,
            detail: Some("<html>down</html>".into())
        }
    );
    // Unlisted 400 / 403 texts are not guessed.
    assert_eq!(
        answer(400, detail_body("Something new")),
        ApiError::Unexpected {
            status: 400,
            detail: Some("Something new".into())
        }
    );
    assert_eq!(
        answer(403, detail_body("Preview is for enterprise customers")),
        ApiError::Unexpected {
            status: 403,
            detail: Some("Preview is for enterprise customers".into())
        }
    );
    assert_eq!(
        ApiError::from_response(418, None, b""),
        ApiError::Unexpected {
            status: 418,
            detail: None
        }
    );
}

#[test]
fn drifted_402_texts_are_read_by_their_words() {
    assert_eq!(
        answer(402, detail_body("Not enough phone credits left")),
        ApiError::InsufficientCredits {
            pool: CreditPool::Phone
        }
    );
    assert_eq!(
        answer(402, detail_body("email verifications in progress")),
        ApiError::VerificationsInProgress {
            pool: CreditPool::Email
        }
    );
    assert_eq!(
        ApiError::from_response(402, None, b""),
        ApiError::InsufficientCredits {
            pool: CreditPool::Standard
        }
    );
}

#[test]
fn user_messages_are_plain_words() {
    let m = |e: ApiError| e.user_message();
    assert_eq!(
        m(ApiError::InsufficientCredits {
            pool: CreditPool::Email
        }),
        "Insufficient email credits"
    );
    assert_eq!(
        m(ApiError::InsufficientCredits {
            pool: CreditPool::Standard
        }),
        "Insufficient credits"
    );
    assert_eq!(m(ApiError::UnknownToken), "Token not registered");
    assert_eq!(m(ApiError::MissingToken), "No API token set");
    assert_eq!(
        m(ApiError::RateLimited {
            retry_after: Some(Duration::from_secs(3))
        }),
        "Rate limited; retry in 3s"
    );
    assert_eq!(
        m(ApiError::VerificationsInProgress {
            pool: CreditPool::Phone
        }),
        "Phone verifications in progress; try again later"
    );
    assert!(
        m(ApiError::Decode {
            path: "companies[0].company".into(),
            message: "x".into()
        })
        .contains("companies[0].company")
    );
}

#[test]
fn nothing_charged_for_refusals() {
    assert!(ApiError::Invalid(vec![]).nothing_charged());
    assert!(
        ApiError::InsufficientCredits {
            pool: CreditPool::Phone
        }
        .nothing_charged()
    );
    assert!(!ApiError::Timeout.nothing_charged());
    assert!(
        !ApiError::Server {
            status: 500,
            detail: None
        }
        .nothing_charged()
    );
}

#[test]
fn redact_removes_the_token_and_query_tokens() {
    let token = "sk_live_SECRET123";
    let msg =
        format!("error sending request for url (http://h/v2/x?apiToken={token}&a=1): boom {token}");
    let r = redact(&msg, token);
    assert!(!r.contains(token), "{r}");
    assert!(r.contains("apiToken=***&a=1"), "{r}");
    assert_eq!(redact("no token here", ""), "no token here");
    assert_eq!(redact("x apiToken=abc", ""), "x apiToken=***");
}

#[test]
fn client_debug_and_display_never_show_the_token() {
    let token = "tok_VERY_SECRET_987";
    let client = prospect::api::client::Client::new("http://127.0.0.1:9/api", token).unwrap();
    let dbg = format!("{client:?}");
    let disp = format!("{client}");
    assert!(
        !dbg.contains(token) && !disp.contains(token),
        "{dbg} / {disp}"
    );
    assert!(dbg.contains("127.0.0.1:9"));
    assert_eq!(client.base_url().as_str(), "http://127.0.0.1:9/api/");
    assert_eq!(
        client
            .url_of(prospect::api::client::Endpoint::SearchPeoplePreview)
            .as_str(),
        "http://127.0.0.1:9/api/v3/search/people/preview"
    );
    // Configuration errors do not echo the token either.
    let bad = prospect::api::client::Client::new("http://h/", "bad\ntoken_SECRET").unwrap_err();
    assert!(matches!(bad, ApiError::Config(_)));
    assert!(!format!("{bad:?} {bad}").contains("token_SECRET"));
    assert!(matches!(
        prospect::api::client::Client::new("http://h/?apiToken=x", token),
        Err(ApiError::Config(_))
    ));
    assert!(matches!(
        prospect::api::client::Client::new("not a url", token),
        Err(ApiError::Config(_))
    ));
}
