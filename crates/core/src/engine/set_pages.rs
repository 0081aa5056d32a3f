//! One page of a saved filter set's search as the explorer asks it (issue 37): planned and
//! bought through the same door as any page ([`super::plan_page`], [`super::search_page`]),
//! with the set's part on top: a new-only page carries the keys the set's earlier runs bought
//! (those before the run started, the same on every page of it) as the API's excludes; every
//! page's keys join the set's, the run is recorded as it goes, and the page says which of its
//! records are new to the set.

use std::collections::HashSet;

use chrono::{DateTime, Utc};

use super::sets::{NewOnly, SetSearch, apply, drop_overflow, keys_of, subject_name};
use super::{Plan, plan_page};
use crate::request::{SearchRequest, SearchResponse, build_search};
use crate::session::{Freshness, Paid, Session, with_store};
use prospect_api::error::ApiError;
use prospect_store::SearchId;

/// A page of a set's search, kept: the answer (the owned records past the excludes cap left
/// out), its history row, and what it brought the set.
#[derive(Debug)]
pub(super) struct SetPage {
    /// The page as [`super::buy_page`] answered it.
    pub paid: Paid<SearchResponse>,
    /// The history row it is stored under.
    pub search_id: Option<SearchId>,
    /// What it brought the set.
    pub facts: SetFacts,
}

/// What a page of a set's run brought the set: the keys of its records new to the set, what
/// new-only sent, and how many owned records it paid for again.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SetFacts {
    /// Keys ([`keys_of`]) of its records that no earlier page or run of the set had bought.
    pub new_keys: HashSet<String>,
    /// What new-only sent (`None` for a plain run of the set).
    pub new_only: Option<NewOnly>,
    /// Owned records past the cap, bought again and left out.
    pub paid_again: u64,
}

/// What [`with_excludes`] made of a page's request: the request to send, what new-only
/// excludes, and what suppression excluded (new-only: applied first, as the engine's run of a
/// set applies it, so both build the same search and read the same stored pages).
type Excluded = (
    SearchRequest,
    Option<NewOnly>,
    Option<crate::suppress::Suppressed>,
);

/// `req` with the suppressed entities, then the set's owned keys before `run_at`, as excludes
/// when `set` is new-only (its cursor kept); unchanged otherwise. Errors: the store cannot be
/// read, or the body with the excludes does not build, in words.
async fn with_excludes(
    s: &Session,
    req: &SearchRequest,
    set: &SetSearch,
    run_at: Option<DateTime<Utc>>,
) -> Result<Excluded, String> {
    if !set.new_only {
        return Ok((req.clone(), None, None));
    }
    let (body, suppressed) = crate::suppress::apply_to_body(s, req.endpoint(), &req.body()).await;
    let (body, n) = apply(s, req.endpoint(), &body, set, run_at).await?;
    let built = build_search(req.endpoint(), &body).map_err(|p| {
        format!(
            "the new-only request does not build: {}",
            p.first().map(|e| e.msg.clone()).unwrap_or_default()
        )
    })?;
    Ok((
        built.with_search_after(req.search_after().map(str::to_string)),
        Some(n),
        Some(suppressed),
    ))
}

/// The plan of a page of `set`'s search ([`plan_page`]); new-only, of the page with its
/// excludes, never answered from the store, with [`Plan::new_only`] saying what it excludes.
/// A store that cannot be read refuses the plan, saying so.
pub async fn plan_set_page(
    s: &Session,
    req: &SearchRequest,
    fresh: Freshness,
    set: &SetSearch,
) -> Plan {
    match with_excludes(s, req, set, None).await {
        Ok((req, None, _)) => plan_page(s, &req, fresh).await,
        Ok((req, Some(n), suppressed)) => {
            let mut p = plan_page(s, &req, Freshness::Refresh).await;
            p.new_only = Some(n);
            if let Some(sup) = suppressed {
                p.suppressed = sup.total();
                p.suppressed_by = sup.by_category;
            }
            p
        }
        Err(e) => {
            let mut p = plan_page(s, req, fresh).await;
            p.refusal = Some(format!("the set's earlier runs could not be read: {e}"));
            p
        }
    }
}

/// Page `page` of `set`'s search run that started at `run_at`, bought (or read) through
/// [`super::buy_page`]; a new-only page with the set's excludes as they were when the run
/// started, bought fresh. Its keys join the set's and the run is recorded (added to by each
/// page); a store that cannot record them is the page's `store_error` (the page is kept and
/// shown all the same). Errors: the client's ([`ApiError`]); the set's earlier runs not
/// readable for a new-only page (nothing sent).
pub(super) async fn search_set_page(
    s: &Session,
    req: &SearchRequest,
    page: u32,
    fresh: Freshness,
    set: &SetSearch,
    run_at: DateTime<Utc>,
) -> Result<SetPage, ApiError> {
    let (req, new_only, suppressed) = with_excludes(s, req, set, Some(run_at))
        .await
        .map_err(|e| ApiError::Refused(format!("the set's earlier runs could not be read: {e}")))?;
    let fresh = if new_only.is_some() {
        Freshness::Refresh
    } else {
        fresh
    };
    let (mut paid, search_id) = super::buy_page(s, &req, page, fresh).await?;
    // The suppressed entities were excluded before the set's keys: say what they were.
    if let Some(sup) = suppressed {
        paid.suppressed = sup.describe();
    }
    let keys = keys_of(&paid.value);
    let paid_again = match &new_only {
        Some(n) => drop_overflow(&mut paid.value, n.overflow(), usize::MAX) as u64,
        None => 0,
    };
    let shown = super::run::records_of(&paid.value) as u64;
    let (name, subject) = (set.name.clone(), subject_name(req.endpoint()));
    let run = prospect_store::SetRun {
        set_name: set.name.clone(),
        subject: subject.to_string(),
        ran_at: run_at,
        new_only: set.new_only,
        results: shown,
        new_results: 0,
        paid_again,
        credits: paid.charged.standard,
        job: None,
    };
    let recorded = with_store(s.store(), move |st| {
        let new = st.add_set_keys(&name, subject, &keys, run_at)?;
        let mut run = run;
        run.new_results = (new.len() as u64).min(shown);
        st.record_set_run(&run)?;
        Ok(new)
    })
    .await;
    let new_keys = match recorded {
        Ok(new) => new.into_iter().collect(),
        Err(e) => {
            let why = format!("recording the set's run: {e}");
            paid.store_error = Some(match paid.store_error.take() {
                Some(before) => format!("{before}; {why}"),
                None => why,
            });
            HashSet::new()
        }
    };
    Ok(SetPage {
        paid,
        search_id,
        facts: SetFacts {
            new_keys,
            new_only,
            paid_again,
        },
    })
}
