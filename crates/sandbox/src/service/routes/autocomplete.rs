//! 1-5. Autocomplete (SPEC.md §4.1, §4.10): 0.1 standard credit per call.

use super::call::{Answer, Call, St, answer_with};
use crate::service::billing;
use crate::service::engine_calls;
use crate::service::error::texts;
use crate::service::validation;
use prospect_api::client::Endpoint;
use prospect_api::types::*;

macro_rules! autocomplete_handler {
    ($name:ident, $req:ty, $endpoint:ident) => {
        /// POST autocomplete: 0.1 standard credit per call.
        pub(crate) async fn $name(axum::extract::State(st): St, call: Call) -> Answer {
            let req: $req =
                validation::parse_request(Endpoint::$endpoint, &call.headers, &call.body)?;
            call.account.require_standard(texts::INSUFFICIENT_CREDITS)?;
            let db = st.db().await?;
            answer_with(move || {
                let answer = engine_calls::$name(&db, &req)?;
                billing::charge_results(&call.account, Endpoint::$endpoint, 1)?;
                Ok(answer)
            })
            .await
        }
    };
}

autocomplete_handler!(
    autocomplete_companies,
    AutocompleteCompaniesRequest,
    AutocompleteCompanies
);
autocomplete_handler!(
    autocomplete_keywords,
    AutocompleteKeywordsRequest,
    AutocompleteKeywords
);
autocomplete_handler!(
    autocomplete_job_titles,
    AutocompleteJobTitlesRequest,
    AutocompleteJobTitles
);
autocomplete_handler!(
    autocomplete_locations,
    AutocompleteLocationsRequest,
    AutocompleteLocations
);
autocomplete_handler!(
    autocomplete_skills,
    AutocompleteSkillsRequest,
    AutocompleteSkills
);
