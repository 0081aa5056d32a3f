//! What a 2xx answer of a paid endpoint carries for the store and the bill (SPEC.md §4): its
//! `creditsUsed`, the quantities the price table charges, the entities it returned and, for a
//! search page, its paging facts. Implemented once for every paid response type.

use chrono::{DateTime, Utc};

use crate::{Entities, EntityRefs, PageFacts, contacts_of};
use prospect_api::client::Enriched;
use prospect_api::cost::Quantities;
use prospect_api::types::*;

/// What a 2xx answer carries for the store and the bill: its record count and the entities in
/// it. Implemented for every response of a paid endpoint.
pub trait Bought {
    /// `creditsUsed` of the answer, when the schema has it and the service set it (> 0).
    fn credits_used(&self) -> Option<f64> {
        None
    }
    /// What was returned, for the price table (results; verified emails and phones).
    fn quantities(&self) -> Quantities;
    /// Companies, people and contacts in the answer, borrowed from it, for the entity tables;
    /// people's contacts are revealed at `at`.
    fn entity_refs(&self, at: DateTime<Utc>) -> EntityRefs<'_>;
    /// [`Bought::entities`], owned.
    fn entities(&self, at: DateTime<Utc>) -> Entities {
        self.entity_refs(at).cloned()
    }
    /// The paging facts of a search answer (next cursor, records, total); `None` for others.
    fn page_facts(&self) -> Option<PageFacts> {
        None
    }
}

fn used(x: f64) -> Option<f64> {
    (x.is_finite() && x > 0.0).then_some(x)
}

fn people_quantities<'a>(people: impl Iterator<Item = &'a Person>) -> Quantities {
    let mut q = Quantities::default();
    for p in people {
        q.results += 1;
        if p.email
            .as_ref()
            .is_some_and(|e| e.status == EmailStatus::Verified)
        {
            q.emails += 1;
        }
        if p.phone
            .as_ref()
            .is_some_and(|e| e.status == PhoneStatus::Verified)
        {
            q.phones += 1;
        }
    }
    q
}

fn people_entities<'a>(
    people: impl Iterator<Item = &'a Person>,
    at: DateTime<Utc>,
) -> EntityRefs<'a> {
    let mut e = EntityRefs::default();
    for p in people {
        e.contacts.extend(contacts_of(p, at));
        e.people.push(p);
    }
    e
}

fn companies_entities<'a>(companies: impl Iterator<Item = &'a Company>) -> EntityRefs<'a> {
    EntityRefs {
        companies: companies.filter(|c| !c.domain.is_empty()).collect(),
        ..EntityRefs::default()
    }
}

fn results(n: usize) -> Quantities {
    Quantities {
        results: n as u64,
        ..Quantities::default()
    }
}

/// `Bought` for an answer with `creditsUsed` and a list of records: `$people` maps `&self` to
/// an iterator of `&Person`, or `$companies` to one of `&Company`.
macro_rules! bought_list {
    ($t:ty, companies: |$c:ident| $companies:expr) => {
        impl Bought for $t {
            fn credits_used(&self) -> Option<f64> {
                used(self.credits_used)
            }
            fn quantities(&self) -> Quantities {
                let $c = self;
                results($companies.count())
            }
            fn entity_refs(&self, _at: DateTime<Utc>) -> EntityRefs<'_> {
                let $c = self;
                companies_entities($companies)
            }
            fn page_facts(&self) -> Option<PageFacts> {
                let $c = self;
                <$t as Paging>::facts($c, $companies.count())
            }
        }
    };
    ($t:ty, people: |$p:ident| $people:expr) => {
        impl Bought for $t {
            fn credits_used(&self) -> Option<f64> {
                used(self.credits_used)
            }
            fn quantities(&self) -> Quantities {
                let $p = self;
                people_quantities($people)
            }
            fn entity_refs(&self, at: DateTime<Utc>) -> EntityRefs<'_> {
                let $p = self;
                people_entities($people, at)
            }
            fn page_facts(&self) -> Option<PageFacts> {
                let $p = self;
                <$t as Paging>::facts($p, $people.count())
            }
        }
    };
}

/// The cursor and total of an answer, for [`Bought::page_facts`]: the four searches have them,
/// a lookup does not.
trait Paging {
    fn facts(&self, n: usize) -> Option<PageFacts>;
}

macro_rules! paging {
    ($($t:ty: $yes:tt),+) => {$(
        impl Paging for $t {
            fn facts(&self, n: usize) -> Option<PageFacts> {
                paging!(@ $yes self n)
            }
        }
    )+};
    (@ yes $s:ident $n:ident) => {
        Some(PageFacts {
            cursor_out: $s.search_after.clone().filter(|c| !c.is_empty()),
            n: $n as u64,
            total: $s.total,
        })
    };
    (@ no $s:ident $n:ident) => {{
        let _ = ($s, $n);
        None
    }};
}

paging!(
    SearchCompaniesV3Response: yes,
    SearchCompaniesV2Response: yes,
    SearchPeopleV3Response: yes,
    SearchPeopleV2Response: yes,
    LookupPeopleResponse: no
);

bought_list!(SearchCompaniesV3Response, companies: |r| r.companies.iter().map(|c| &c.company));
bought_list!(SearchCompaniesV2Response, companies: |r| r.companies.iter().map(|c| &c.company));
bought_list!(SearchPeopleV3Response, people: |r| r.people.iter().map(|p| &p.person));
bought_list!(SearchPeopleV2Response, people: |r| r.people.iter());
bought_list!(LookupPeopleResponse, people: |r| r.people.iter().map(|p| &p.person));

/// A batch enrichment's acknowledgement (`{"status":"in progress"}`) costs nothing and holds no
/// records: the companies or people, and their charge, come by webhook.
impl Bought for EnrichBatchAccepted {
    fn quantities(&self) -> Quantities {
        Quantities::default()
    }
    fn entity_refs(&self, _at: DateTime<Utc>) -> EntityRefs<'_> {
        EntityRefs::default()
    }
}

impl Bought for SegmentationId {
    /// Charged for what the request asked (its distinct domains), not for the answer, which is
    /// only the id: see `Session::charge`.
    fn quantities(&self) -> Quantities {
        Quantities::default()
    }
    fn entity_refs(&self, _at: DateTime<Utc>) -> EntityRefs<'_> {
        EntityRefs::default()
    }
}

/// The company preview's records are masked and have no domain: nothing to keep as an entity;
/// charged per preview returned.
impl Bought for SearchCompaniesPreviewResponse {
    fn credits_used(&self) -> Option<f64> {
        used(self.credits_used)
    }
    fn quantities(&self) -> Quantities {
        results(self.companies.len())
    }
    fn entity_refs(&self, _at: DateTime<Utc>) -> EntityRefs<'_> {
        EntityRefs::default()
    }
}

impl Bought for SearchPeoplePreviewResponse {
    fn credits_used(&self) -> Option<f64> {
        used(self.credits_used)
    }
    fn quantities(&self) -> Quantities {
        results(self.people.len())
    }
    fn entity_refs(&self, _at: DateTime<Utc>) -> EntityRefs<'_> {
        // Preview people are masked and have no id: nothing to keep as an entity.
        EntityRefs::default()
    }
}

impl Bought for LookupCompaniesResponse {
    fn credits_used(&self) -> Option<f64> {
        used(self.credits_used)
    }
    fn quantities(&self) -> Quantities {
        results(
            self.companies
                .iter()
                .filter(|c| c.company().is_some())
                .count(),
        )
    }
    fn entity_refs(&self, _at: DateTime<Utc>) -> EntityRefs<'_> {
        companies_entities(self.companies.iter().filter_map(|c| c.company()))
    }
}

impl Bought for Enriched<EnrichCompanyResponse> {
    fn credits_used(&self) -> Option<f64> {
        match self {
            Enriched::Found(r) => used(r.credits_used),
            Enriched::Gathering { .. } => None,
        }
    }
    fn quantities(&self) -> Quantities {
        results(matches!(self, Enriched::Found(_)) as usize)
    }
    fn entity_refs(&self, _at: DateTime<Utc>) -> EntityRefs<'_> {
        match self {
            Enriched::Found(r) => companies_entities(std::iter::once(&r.company)),
            Enriched::Gathering { .. } => EntityRefs::default(),
        }
    }
}

impl Bought for Enriched<EnrichPersonResponse> {
    fn credits_used(&self) -> Option<f64> {
        match self {
            Enriched::Found(r) => used(r.credits_used),
            Enriched::Gathering { .. } => None,
        }
    }
    fn quantities(&self) -> Quantities {
        match self {
            Enriched::Found(r) => people_quantities(std::iter::once(&r.person)),
            Enriched::Gathering { .. } => Quantities::default(),
        }
    }
    fn entity_refs(&self, at: DateTime<Utc>) -> EntityRefs<'_> {
        match self {
            Enriched::Found(r) => people_entities(std::iter::once(&r.person), at),
            Enriched::Gathering { .. } => EntityRefs::default(),
        }
    }
}

macro_rules! nothing_bought {
    ($($t:ty),+) => {$(
        impl Bought for $t {
            fn quantities(&self) -> Quantities {
                // Autocomplete is priced per call; a reveal's charge arrives with its webhook.
                Quantities { results: 1, ..Quantities::default() }
            }
            fn entity_refs(&self, _at: DateTime<Utc>) -> EntityRefs<'_> {
                EntityRefs::default()
            }
        }
    )+};
}

nothing_bought!(
    AutocompleteCompaniesResponse,
    AutocompleteKeywordsResponse,
    AutocompleteJobTitlesResponse,
    AutocompleteLocationsResponse,
    AutocompleteSkillsResponse,
    RevealEmailsResponse,
    RevealPhonesResponse
);
