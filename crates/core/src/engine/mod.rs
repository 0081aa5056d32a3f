//! The spend engine (issue 15): the one lifecycle of every paid action of every front end,
//! **plan → confirm → claim → paced call → keep the raw answer → entities**.
//!
//! - **Plan** ([`plan`]): before anything paid is sent, what the store already owns (0 credits,
//!   with its age), what is pending (a reveal awaiting its webhook) or refused (a key that is
//!   not one), what is to buy with the credits per pool, the requests against the per-minute
//!   and daily allowances, an ETA, and the budget check ([`SpendPolicy::budget`], per pool per
//!   UTC day, against the store's ledger of every process). The explorer's confirm popup and
//!   the CLI's `--dry-run` print this one value.
//! - **Claim**: each item (a company domain, a person's email, …) is claimed in the store before
//!   its call ([`prospect_store::Store::claim`]); a second process planning the same item waits for
//!   the first one's answer and reads it at 0 credits. A claim whose lease expired (its buyer
//!   died) is taken over.
//! - **Paced call**: the client paces every request to the per-minute allowance
//!   ([`prospect_api::pace`]) and never resends a paid request after a possible charge.
//! - **Keep**: the raw answer, byte for byte (zstd), with the entities that decode from it, in
//!   one transaction ([`keep()`]); what does not decode is left out and named; a store that
//!   cannot write hands the answer to a recovery file imported at the next start.
//! - **Jobs**: an action is a job in the store with its spec, so an interrupted one is listed
//!   (`prospect jobs`) and run again (`prospect resume ID`, or the same command): what was bought
//!   is owned, so only the rest is bought. A search resumes from its stored `searchAfter`.

mod action;
mod batch;
mod decode;
mod door;
mod gate;
mod jobs;
pub(crate) mod keep;
mod keys;
pub(crate) mod lenient;
mod page;
mod paged;
mod pages;
mod plan;
mod planners;
pub(crate) mod policy;
mod run;
mod salvage;
mod set_pages;
mod sets;

pub use action::{Action, check_paging};
pub use batch::{PersonItem, person_item};
pub use decode::entities_of;
pub use door::{Answer, Arrived, Event, Ran, RanByWebhook, run, run_by_webhook, run_with_rows};
pub use keep::{
    KeepReport, PageToKeep, ToKeep, fallback_recovery_dir, import_recovery_from, keep,
    recovery_dir_for, recovery_dir_of,
};
pub use keys::{
    KeyColumn, KeyError, KeySource, MAX_INPUT_BYTES, MAX_KEYS, MAX_LINE_BYTES, column_kind,
    csv_header, is_service_id, read_key_list, split_people_keys,
};
pub use lenient::read_lenient;
pub use page::{PageRead, search_page};
pub use paged::{PageAsk, PageEnd, PagedSearch};
pub use pages::{Next, SearchPages, V2_WINDOW, page_request};
pub use plan::{Plan, PlanError, RefusalCause, describe_eta};
pub use planners::{plan, plan_page};
pub use policy::{CLAIM_LEASE, REVEAL_LEASE, SEARCH_PAGE, SpendPolicy, looked_at, new_owner};
pub use run::{
    Progress, RunError, RunReport, SearchOf, SearchRecords, contact_key, enrich_company_request,
    lookup_companies, lookup_people, lookup_people_by_shape, search,
};
pub(crate) use run::{buy_claimed, buy_page};
pub use set_pages::{SetFacts, plan_set_page};
pub use sets::{
    EXCLUDES_MAX, NewOnly, SetReport, SetSearch, affordable_results, keys_of, search_within,
    subject_name,
};

#[cfg(test)]
mod tests {
    use super::gate::*;
    use super::*;
    use prospect_api::cost::Cost;
    use prospect_api::types::CreditBalance;

    /// The daily allowance in a plan (issue 34): a balance showing 0 left that resets in 0 s
    /// refuses nothing; 0 left with a later reset is the used-up allowance (exit 6); too few
    /// left is a spend refusal (exit 5).
    #[test]
    fn the_daily_allowance_refuses_only_what_it_cannot_send() {
        assert_eq!(daily_refusal(3, Some(0), Some(0)), None);
        assert_eq!(daily_refusal(3, Some(5), Some(3600)), None);
        assert_eq!(daily_refusal(3, None, Some(3600)), None);
        let (cause, words) = daily_refusal(1, Some(0), Some(3600)).unwrap();
        assert_eq!(cause, RefusalCause::DailyAllowance);
        assert!(words.contains("resets in 1h 00m"), "{words}");
        let (cause, words) = daily_refusal(9, Some(4), Some(60)).unwrap();
        assert_eq!(cause, RefusalCause::Spend);
        assert!(words.contains("4 left today"), "{words}");
    }

    /// A plan over the known balance says what fits (issue 34: "3 credits left: 15 rows fit").
    #[test]
    fn a_plan_over_the_balance_says_what_fits() {
        let mut p = Plan::new("search".into(), "search", false);
        p.to_buy = 25;
        p.cost = Cost {
            standard: 5.0,
            ..Cost::ZERO
        };
        let b = |standard: f64| CreditBalance {
            credits: Some(prospect_api::types::Credits {
                one_time: standard,
                recurrent: 0.0,
            }),
            ..CreditBalance::default()
        };
        let words = balance_refusal(&p, &b(3.0)).unwrap();
        assert!(
            words.contains("3 standard credits left: 15 of 25 rows fit"),
            "{words}"
        );
        assert_eq!(balance_refusal(&p, &b(5.0)), None);
        assert_eq!(balance_refusal(&p, &CreditBalance::default()), None);
    }

    /// A job's stored plan reads back typed; a plan lacking members takes their defaults, and
    /// JSON that is not a plan leaves the job's kind as what it does.
    #[test]
    fn a_jobs_plan_reads_back_typed() {
        let mut plan = Plan::new("lookup of 2,000 domains".into(), "lookup_companies", false);
        plan.to_buy = 2_000;
        let mut job = prospect_store::JobRow {
            id: prospect_store::JobId(1),
            kind: "lookup_companies".into(),
            fingerprint: String::new(),
            spec: serde_json::Value::Null,
            plan: serde_json::to_value(&plan).unwrap(),
            state: prospect_store::JobStatus::Interrupted,
            pid: 1,
            detail: String::new(),
            bought: 0,
            created_at: plan.planned_at,
            updated_at: plan.planned_at,
        };
        assert_eq!(Plan::of_job(&job), Some(plan));
        assert_eq!(Plan::job_action(&job), "lookup of 2,000 domains");
        job.plan = serde_json::json!({"action": "search of up to 50"});
        assert_eq!(Plan::job_action(&job), "search of up to 50");
        job.plan = serde_json::json!([1, 2]);
        assert_eq!(Plan::of_job(&job), None);
        assert_eq!(Plan::job_action(&job), "lookup_companies");
    }

    #[test]
    fn paging_members_are_refused_not_replaced() {
        assert!(check_paging(&serde_json::json!({"size": 25})).is_ok());
        for bad in [
            serde_json::json!({"size": -5}),
            serde_json::json!({"size": 2.5}),
            serde_json::json!({"size": 1e300}),
            serde_json::json!({"size": "10"}),
            serde_json::json!({"size": 0}),
            serde_json::json!({"from": 10_002}),
        ] {
            let e = check_paging(&bad).unwrap_err();
            assert!(e.contains("must be a whole number"), "{e}");
        }
    }

    #[test]
    fn the_same_action_has_the_same_fingerprint() {
        let a = Action::Search {
            endpoint: "/v3/search/companies".into(),
            body: serde_json::json!({"b": 1, "a": {"y": 2, "x": 1}}),
            limit: 100,
            set: None,
        };
        let b = Action::Search {
            endpoint: "/v3/search/companies".into(),
            body: serde_json::json!({"a": {"x": 1, "y": 2}, "b": 1}),
            limit: 100,
            set: None,
        };
        assert_eq!(a.fingerprint(), b.fingerprint());
        assert_eq!(a.kind(), "search");
    }

    #[test]
    fn eta_words() {
        assert_eq!(describe_eta(0), "0s");
        assert_eq!(describe_eta(61), "1m 01s");
        assert_eq!(describe_eta(3660), "1h 01m");
    }
}
