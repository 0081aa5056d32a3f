//! 6-10. Company searches (0.2 credit per company returned) and people searches (v2: 1 credit
//! per person, 3 with `lookalikeDomains`; v3 and preview: 0.2 per person), with the reveal
//! options of NOTES.md.

use std::sync::Arc;

use axum::extract::State;

use super::call::{Answer, Call, St, answer_with};
use crate::dataset::load::Db;
use crate::service::billing::{
    self, PersonRecord, RevealOpts, reveal_opts, settle_people, standard_price,
};
use crate::service::engine_calls;
use crate::service::error::{Failure, texts};
use crate::service::state::AppState;
use crate::service::validation;
use prospect_api::client::Endpoint;
use prospect_api::types::*;

/// A search answer as billing sees it: the records it returns (each charged), the `total` the
/// service reports, and its `creditsUsed`.
trait Charged: serde::Serialize + Send + 'static {
    /// A company or person record of the answer.
    type Record;
    /// The records returned.
    fn records(&mut self) -> &mut Vec<Self::Record>;
    /// `total` of the answer (matches, not only this page), if reported.
    fn total(&self) -> Option<i64>;
    /// Where the charge is written (`creditsUsed`, credits).
    fn credits_used(&mut self) -> &mut f64;
}

macro_rules! charged {
    ($($answer:ty => $field:ident: $record:ty),+ $(,)?) => {$(
        impl Charged for $answer {
            type Record = $record;
            fn records(&mut self) -> &mut Vec<$record> {
                &mut self.$field
            }
            fn total(&self) -> Option<i64> {
                self.total
            }
            fn credits_used(&mut self) -> &mut f64 {
                &mut self.credits_used
            }
        }
    )+};
}

charged! {
    SearchCompaniesV2Response<RecordJson> => companies: CompanyWithScore<RecordJson>,
    SearchCompaniesV3Response<RecordJson> => companies: CompanyWithRelevance<RecordJson>,
    SearchPeopleV2Response => people: Person,
    SearchPeopleV3Response => people: LookalikePerson,
    SearchPeopleV3Response<RecordJson> => people: RecordJson,
    SearchPeoplePreviewResponse => people: PersonWithCompanyPreview,
}

impl Charged for SearchCompaniesPreviewResponse {
    type Record = CompanyPreviewResult;
    fn records(&mut self) -> &mut Vec<CompanyPreviewResult> {
        &mut self.companies
    }
    fn total(&self) -> Option<i64> {
        Some(self.total_hits)
    }
    fn credits_used(&mut self) -> &mut f64 {
        &mut self.credits_used
    }
}

/// The engine's search for a request type.
type Search<Q, A> = fn(&Db, &Q) -> Result<A, Failure>;

/// Runs a search charged per record returned (the price table's standard price of
/// `endpoint`), once the dataset is there; 402 when the account cannot pay.
async fn per_record<Q: Send + 'static, A: Charged>(
    st: Arc<AppState>,
    call: Call,
    endpoint: Endpoint,
    req: Q,
    search: Search<Q, A>,
) -> Answer {
    let db = st.db().await?;
    answer_with(move || {
        let mut answer = search(&db, &req)?;
        let n = answer.records().len();
        *answer.credits_used() = billing::charge_results(&call.account, endpoint, n)?;
        Ok(answer)
    })
    .await
}

/// Runs a people search and settles it: the standard price per person (`lookalike`: the v2
/// price with `lookalikeDomains`) plus the reveals `opts` asks for (NOTES.md); 402 with
/// `standard_text` when the standard pool cannot pay.
#[allow(clippy::too_many_arguments)]
async fn people<Q: Send + 'static, A: Charged>(
    st: Arc<AppState>,
    call: Call,
    endpoint: Endpoint,
    req: Q,
    search: Search<Q, A>,
    opts: RevealOpts,
    standard_text: &'static str,
    lookalike: bool,
) -> Answer
where
    A::Record: PersonRecord,
{
    let db = st.db().await?;
    answer_with(move || {
        let mut answer = search(&db, &req)?;
        let price = standard_price(endpoint, answer.records().len(), lookalike);
        let total = answer.total();
        *answer.credits_used() = settle_people(
            &st,
            &db,
            &call.account,
            standard_text,
            price,
            answer.records(),
            &opts,
            total,
            false,
        )?;
        Ok(answer)
    })
    .await
}

/// POST /v2/search/companies (SPEC.md §4.2): legacy plan only.
pub(crate) async fn search_companies_v2(State(st): St, call: Call) -> Answer {
    let endpoint = Endpoint::SearchCompaniesV2;
    let req: SearchCompaniesV2Request =
        validation::parse_request(endpoint, &call.headers, &call.body)?;
    if !call.account.plan.allows_v2_search() {
        return Err(Failure::bad_request(texts::PLAN_NOT_SUPPORTED));
    }
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    per_record(st, call, endpoint, req, engine_calls::search_companies_v2).await
}

/// POST /v3/search/companies (SPEC.md §4.10; openapi `PublicSearchCompaniesBodyV3`).
pub(crate) async fn search_companies_v3(State(st): St, call: Call) -> Answer {
    let endpoint = Endpoint::SearchCompaniesV3;
    let req: SearchCompaniesV3Request =
        validation::parse_request(endpoint, &call.headers, &call.body)?;
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    per_record(st, call, endpoint, req, engine_calls::search_companies_v3).await
}

/// POST /v2/search/people (SPEC.md §4.3): legacy plan only; 3 credits per person with
/// `lookalikeDomains`, 1 without; 402 "Insufficient standard credits".
pub(crate) async fn search_people_v2(State(st): St, call: Call) -> Answer {
    let endpoint = Endpoint::SearchPeopleV2;
    let req: SearchPeopleV2Request =
        validation::parse_request(endpoint, &call.headers, &call.body)?;
    if !call.account.plan.allows_v2_search() {
        return Err(Failure::bad_request(texts::PLAN_NOT_SUPPORTED));
    }
    let opts = reveal_opts(req.reveal_emails.as_ref(), req.reveal_phones.as_ref())?;
    let text = texts::INSUFFICIENT_STANDARD_CREDITS;
    call.account.require_standard(text)?;
    let lookalike = req
        .companies_filters
        .as_ref()
        .and_then(|f| f.lookalike_domains.as_ref())
        .is_some_and(|d| !d.is_empty());
    let search = engine_calls::search_people_v2;
    people(st, call, endpoint, req, search, opts, text, lookalike).await
}

/// POST /v3/search/people (SPEC.md §4.10): 0.2 credit per person; reveal options as NOTES.md.
pub(crate) async fn search_people_v3(State(st): St, call: Call) -> Answer {
    let endpoint = Endpoint::SearchPeopleV3;
    let req: SearchPeopleV3Request =
        validation::parse_request(endpoint, &call.headers, &call.body)?;
    let opts = reveal_opts(req.reveal_emails.as_ref(), req.reveal_phones.as_ref())?;
    let text = texts::INSUFFICIENT_CREDITS;
    call.account.require_standard(text)?;
    if opts.reveals_nothing() {
        // Nothing to reveal: the standard price per person, the records serialized once.
        return per_record(st, call, endpoint, req, engine_calls::search_people_v3_json).await;
    }
    let search = engine_calls::search_people_v3;
    people(st, call, endpoint, req, search, opts, text, false).await
}

/// POST /v3/search/people/preview (SPEC.md §4.10): enterprise and legacy plans only (403
/// otherwise); 0.2 credit per person.
pub(crate) async fn search_people_preview(State(st): St, call: Call) -> Answer {
    let endpoint = Endpoint::SearchPeoplePreview;
    let req: SearchPeoplePreviewRequest =
        validation::parse_request(endpoint, &call.headers, &call.body)?;
    if !call.account.plan.allows_preview() {
        return Err(Failure::forbidden(texts::FEATURE_NOT_ALLOWED));
    }
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    per_record(st, call, endpoint, req, engine_calls::search_people_preview).await
}

/// POST /v3/search/companies/preview (openapi `PublicPreviewSearchCompaniesV3Body`): enterprise
/// and legacy plans only (403 "You are not allowed to access this feature" otherwise); 0.2
/// credit per company previewed.
pub(crate) async fn search_companies_preview(State(st): St, call: Call) -> Answer {
    let endpoint = Endpoint::SearchCompaniesPreview;
    let req: SearchCompaniesPreviewRequest =
        validation::parse_request(endpoint, &call.headers, &call.body)?;
    if !call.account.plan.allows_preview() {
        return Err(Failure::forbidden(texts::FEATURE_NOT_ALLOWED));
    }
    call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
    per_record(
        st,
        call,
        endpoint,
        req,
        engine_calls::search_companies_preview,
    )
    .await
}
