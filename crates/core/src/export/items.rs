//! A search answer as result items, once for every front end (issue 35): the CLI writes them,
//! the explorer makes its rows of them.

use prospect_api::types::LookalikePerson;

use super::rows::CompanyOut;
use crate::request::SearchResponse;

/// One result of a search answer, whatever the endpoint's shape (SPEC.md §4.2, §4.3): a
/// company with its v3 relevance or v2 score, or a person with the v3 employer summary and
/// relevance (a v2 person has neither).
// Items live only between an answer and its rows or output: boxing the company would add an
// allocation per result to save space no collection of them keeps.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum SearchItem {
    /// A company result.
    Company(CompanyOut),
    /// A person result.
    Person(LookalikePerson),
}

/// The results of search answer `r` as [`SearchItem`]s, in answer order.
pub fn items_of(mut r: SearchResponse) -> Vec<SearchItem> {
    match r {
        SearchResponse::CompaniesV3(_) | SearchResponse::CompaniesV2(_) => take_companies(&mut r)
            .into_iter()
            .map(SearchItem::Company)
            .collect(),
        SearchResponse::PeopleV3(r) => r.people.into_iter().map(SearchItem::Person).collect(),
        SearchResponse::PeopleV2(r) => r
            .people
            .into_iter()
            .map(|person| {
                SearchItem::Person(LookalikePerson {
                    person,
                    ..LookalikePerson::default()
                })
            })
            .collect(),
    }
}

/// The companies of search answer `r` taken out of it (none of a people answer), each with
/// its v3 relevance or v2 score: `r` keeps its other members (`total`, `searchAfter`).
pub fn take_companies(r: &mut SearchResponse) -> Vec<CompanyOut> {
    match r {
        SearchResponse::CompaniesV3(r) => std::mem::take(&mut r.companies)
            .into_iter()
            .map(|c| CompanyOut {
                company: c.company,
                relevance: c.relevance,
                score: None,
            })
            .collect(),
        SearchResponse::CompaniesV2(r) => std::mem::take(&mut r.companies)
            .into_iter()
            .map(|c| CompanyOut {
                company: c.company,
                relevance: None,
                score: c.score,
            })
            .collect(),
        SearchResponse::PeopleV3(_) | SearchResponse::PeopleV2(_) => Vec::new(),
    }
}

/// The companies of search answer `r` (none of a people answer).
pub fn companies_of(mut r: SearchResponse) -> Vec<CompanyOut> {
    take_companies(&mut r)
}

/// The people of search answer `r` (none of a companies answer).
pub fn people_of(r: SearchResponse) -> Vec<LookalikePerson> {
    items_of(r)
        .into_iter()
        .filter_map(|i| match i {
            SearchItem::Person(p) => Some(p),
            SearchItem::Company(_) => None,
        })
        .collect()
}
