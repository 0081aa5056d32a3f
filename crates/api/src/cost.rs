//! Credit costs: the one price table (NOTES.md "Credit costs", SPEC.md §8), the most a request
//! can spend ([`estimate`], shown by the TUI before spending) and the actual charge for what was
//! returned ([`PriceTable::charge_for`], used by the sandbox). Both go through the same
//! [`PriceTable::charge_for`], so the estimate and the charge cannot disagree on prices.
//!
//! Units: credits, as `f64` (NOTES.md: balances are numbers; costs include fractions).

use std::fmt;
use std::ops::{Add, AddAssign};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::endpoint::{ApiRequest, Endpoint};

pub use crate::pool::CreditPool;

/// An amount of credits per pool (each ≥ 0). As an estimate: the most a request can spend.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    /// Standard credits.
    pub standard: f64,
    /// Email credits.
    pub email: f64,
    /// Phone credits.
    pub phone: f64,
}

impl Cost {
    /// Nothing in any pool.
    pub const ZERO: Cost = Cost {
        standard: 0.0,
        email: 0.0,
        phone: 0.0,
    };

    /// `amount` in `pool`, nothing elsewhere.
    pub fn in_pool(pool: CreditPool, amount: f64) -> Cost {
        let mut c = Cost::ZERO;
        *c.pool_mut(pool) = amount;
        c
    }

    /// The amount of one pool.
    pub fn get(&self, pool: CreditPool) -> f64 {
        match pool {
            CreditPool::Standard => self.standard,
            CreditPool::Email => self.email,
            CreditPool::Phone => self.phone,
        }
    }

    /// Mutable access to one pool's amount.
    pub fn pool_mut(&mut self, pool: CreditPool) -> &mut f64 {
        match pool {
            CreditPool::Standard => &mut self.standard,
            CreditPool::Email => &mut self.email,
            CreditPool::Phone => &mut self.phone,
        }
    }

    /// `true` when every pool is zero (a free request).
    pub fn is_zero(&self) -> bool {
        self.standard == 0.0 && self.email == 0.0 && self.phone == 0.0
    }

    /// Rounds each pool to 1/1000 credit (removes float noise such as `0.30000000000000004`).
    pub fn rounded(self) -> Cost {
        let r = |x: f64| (x * 1000.0).round() / 1000.0;
        Cost {
            standard: r(self.standard),
            email: r(self.email),
            phone: r(self.phone),
        }
    }
}

impl Add for Cost {
    type Output = Cost;
    fn add(self, o: Cost) -> Cost {
        Cost {
            standard: self.standard + o.standard,
            email: self.email + o.email,
            phone: self.phone + o.phone,
        }
    }
}

impl AddAssign for Cost {
    fn add_assign(&mut self, o: Cost) {
        *self = *self + o;
    }
}

impl fmt::Display for Cost {
    /// e.g. `10 credits`, `3 credits + 1 email + 1 phone`, `free`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let c = self.rounded();
        if c.is_zero() {
            return f.write_str("free");
        }
        let mut parts = Vec::new();
        if c.standard != 0.0 {
            parts.push(format!("{} credits", c.standard));
        }
        if c.email != 0.0 {
            parts.push(format!("{} email", c.email));
        }
        if c.phone != 0.0 {
            parts.push(format!("{} phone", c.phone));
        }
        f.write_str(&parts.join(" + "))
    }
}

/// The price list (NOTES.md "Credit costs"); all amounts in credits of the named pool.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PriceTable {
    /// Enrich person, per person found (standard; SPEC.md §8): 3; the batch enrich of people
    /// too.
    pub enrich_person: f64,
    /// People search v2, per person returned when `companiesFilters.lookalikeDomains` is
    /// non-empty (standard; SPEC.md §8): 3.
    pub search_people_v2_lookalike: f64,
    /// People search v2, per person returned without lookalike domains (standard): 1.
    pub search_people_v2: f64,
    /// Company search v2 and v3, people search v3, per result (standard): 0.2.
    pub search_per_result: f64,
    /// People and company search previews (v3), per result (standard). NOTES.md does not list
    /// them; they are v3 searches, so they are priced like one: 0.2.
    pub search_preview_per_result: f64,
    /// Enrich company, per company found (standard): 0.1; the batch enrich of companies too.
    pub enrich_company: f64,
    /// Lookup companies / people, per result (standard): 0.05.
    pub lookup_per_result: f64,
    /// Creating a segmentation, per distinct domain segmented (standard). openapi.json lists a
    /// 402 for it and neither it nor NOTES.md gives a price: each domain is read in whole, as an
    /// enrichment reads it, so it is priced as one, 0.1. Reading it, marking domains and
    /// attributing domains to it are free.
    pub segmentation_per_domain: f64,
    /// Any autocomplete, per call (standard): 0.1.
    pub autocomplete: f64,
    /// Per verified email revealed (email pool; reveal emails, search/enrich reveals): 1.
    pub email_reveal: f64,
    /// Per verified phone revealed (phone pool; SPEC.md §4.7): 1.
    pub phone_reveal: f64,
}

/// The sandbox's default prices, exactly the NOTES.md table.
pub const DEFAULT_PRICES: PriceTable = PriceTable {
    enrich_person: 3.0,
    search_people_v2_lookalike: 3.0,
    search_people_v2: 1.0,
    search_per_result: 0.2,
    search_preview_per_result: 0.2,
    enrich_company: 0.1,
    lookup_per_result: 0.05,
    segmentation_per_domain: 0.1,
    autocomplete: 0.1,
    email_reveal: 1.0,
    phone_reveal: 1.0,
};

impl Default for PriceTable {
    fn default() -> Self {
        DEFAULT_PRICES
    }
}

/// What a call returned (for a charge) or could return at most (for an estimate).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Quantities {
    /// Records returned: companies or people of a search or lookup, 1 for an enrich that found
    /// its record (0 for a 201 "gathering" or a 404). Ignored by autocomplete (per call).
    pub results: u64,
    /// People search v2 only: the request held one or more `lookalikeDomains`.
    pub lookalike_domains: bool,
    /// Verified emails revealed (email pool).
    pub emails: u64,
    /// Verified phones revealed (phone pool).
    pub phones: u64,
}

impl PriceTable {
    /// The charge of one successful call of `endpoint` that returned `q` (NOTES.md: "Costs are
    /// charged only for what was returned"; a 4xx charges nothing). Free endpoints (data-fields,
    /// credit balance, warmup) give [`Cost::ZERO`].
    pub fn charge_for(&self, endpoint: Endpoint, q: &Quantities) -> Cost {
        let n = q.results as f64;
        let reveals = Cost {
            standard: 0.0,
            email: q.emails as f64 * self.email_reveal,
            phone: q.phones as f64 * self.phone_reveal,
        };
        let standard = match endpoint {
            Endpoint::AutocompleteCompanies
            | Endpoint::AutocompleteKeywords
            | Endpoint::AutocompleteJobTitles
            | Endpoint::AutocompleteLocations
            | Endpoint::AutocompleteSkills => self.autocomplete,
            Endpoint::SearchCompaniesV2 | Endpoint::SearchCompaniesV3 => n * self.search_per_result,
            Endpoint::SearchPeopleV2 if q.lookalike_domains => n * self.search_people_v2_lookalike,
            Endpoint::SearchPeopleV2 => n * self.search_people_v2,
            Endpoint::SearchPeopleV3 => n * self.search_per_result,
            Endpoint::SearchPeoplePreview | Endpoint::SearchCompaniesPreview => {
                n * self.search_preview_per_result
            }
            // A batch is charged per item found, at the price of its one-record endpoint
            // (openapi.json and NOTES.md are silent; the webhook's `creditsUsed` says).
            Endpoint::EnrichCompanies => n * self.enrich_company,
            Endpoint::EnrichPeople => n * self.enrich_person,
            Endpoint::EnrichCompany => n.min(1.0) * self.enrich_company,
            Endpoint::EnrichPerson => n.min(1.0) * self.enrich_person,
            Endpoint::LookupCompanies | Endpoint::LookupPeople => n * self.lookup_per_result,
            Endpoint::RevealEmails | Endpoint::RevealPhones => 0.0,
            Endpoint::CreateSegmentation => n * self.segmentation_per_domain,
            Endpoint::DataFields
            | Endpoint::CreditBalance
            | Endpoint::WarmupCompanies
            | Endpoint::GetSegmentation
            | Endpoint::MarkSegmentationDomains
            | Endpoint::AttributeSegmentationDomains => {
                return Cost::ZERO;
            }
        };
        let reveals = match endpoint {
            // Only these can reveal; other endpoints never spend email / phone credits.
            Endpoint::SearchPeopleV2
            | Endpoint::SearchPeopleV3
            | Endpoint::EnrichPerson
            | Endpoint::RevealEmails
            | Endpoint::RevealPhones => reveals,
            _ => Cost::ZERO,
        };
        Cost {
            standard,
            ..Cost::ZERO
        } + reveals
    }

    /// The most `req` can spend with these prices (per pool): [`max_quantities`] of its wire
    /// form, priced by [`PriceTable::charge_for`].
    pub fn estimate<R: ApiRequest>(&self, req: &R) -> Cost {
        let wire = serde_json::to_value(req).unwrap_or(Value::Null);
        self.charge_for(R::ENDPOINT, &max_quantities(R::ENDPOINT, &wire))
    }
}

/// The most `req` can spend at the default prices (per pool). Examples: a v3 company search of
/// `size` 100 → 20 standard; a v2 people search of `size` 10 with `lookalikeDomains` and
/// `revealEmails.includeEmails` → 30 standard + 10 email; reveal phones of 7 ids → 7 phone.
pub fn estimate<R: ApiRequest>(req: &R) -> Cost {
    DEFAULT_PRICES.estimate(req)
}

/// The most a call of `endpoint` without a body (data-fields, credit balance) or priced per call
/// (autocomplete) can spend at the default prices.
pub fn estimate_endpoint(endpoint: Endpoint) -> Cost {
    DEFAULT_PRICES.charge_for(
        endpoint,
        &Quantities {
            results: 1,
            ..Quantities::default()
        },
    )
}

/// Default of `size` in searches (SPEC.md §4.2, §4.3; openapi.json).
pub const DEFAULT_SEARCH_SIZE: u64 = 50;

fn len_of(v: &Value, key: &str) -> u64 {
    v.get(key)
        .and_then(Value::as_array)
        .map_or(0, |a| a.len() as u64)
}

/// Members of object `key` of `v` (a batch's id → item mapping); 0 when it is not an object.
fn members_of(v: &Value, key: &str) -> u64 {
    v.get(key)
        .and_then(Value::as_object)
        .map_or(0, |m| m.len() as u64)
}

fn flag(v: &Value, obj: &str, key: &str) -> bool {
    v.get(obj)
        .and_then(|o| o.get(key))
        .and_then(Value::as_bool)
        .unwrap_or(false)
}

/// The most a request can return, read from its JSON wire form `body` (member names of
/// openapi.json): `size` (default 50) for searches, the list lengths for lookup and reveal,
/// 1 for enrich; `lookalike_domains` when `companiesFilters.lookalikeDomains` is non-empty;
/// `emails`/`phones` = the result count when `revealEmails.includeEmails` /
/// `revealPhones.includePhones` is true. The sandbox can use it on raw bodies too.
pub fn max_quantities(endpoint: Endpoint, body: &Value) -> Quantities {
    let size = body
        .get("size")
        .and_then(Value::as_u64)
        .unwrap_or(DEFAULT_SEARCH_SIZE);
    let reveal = |n: u64| {
        (
            if flag(body, "revealEmails", "includeEmails") {
                n
            } else {
                0
            },
            if flag(body, "revealPhones", "includePhones") {
                n
            } else {
                0
            },
        )
    };
    match endpoint {
        Endpoint::SearchCompaniesV2
        | Endpoint::SearchCompaniesV3
        | Endpoint::SearchPeoplePreview
        | Endpoint::SearchCompaniesPreview => Quantities {
            results: size,
            ..Quantities::default()
        },
        Endpoint::EnrichCompanies => Quantities {
            results: members_of(body, "companyDataMapping"),
            ..Quantities::default()
        },
        Endpoint::EnrichPeople => Quantities {
            results: members_of(body, "peopleDataMapping"),
            ..Quantities::default()
        },
        Endpoint::SearchPeopleV2 | Endpoint::SearchPeopleV3 => {
            let (emails, phones) = reveal(size);
            let lookalike = body
                .get("companiesFilters")
                .map(|f| len_of(f, "lookalikeDomains") > 0)
                .unwrap_or(false);
            Quantities {
                results: size,
                lookalike_domains: lookalike,
                emails,
                phones,
            }
        }
        Endpoint::EnrichPerson => {
            let (emails, phones) = reveal(1);
            Quantities {
                results: 1,
                lookalike_domains: false,
                emails,
                phones,
            }
        }
        Endpoint::LookupCompanies | Endpoint::CreateSegmentation => Quantities {
            results: len_of(body, "domains"),
            ..Quantities::default()
        },
        Endpoint::LookupPeople => Quantities {
            results: len_of(body, "linkedinHandles") + len_of(body, "serviceIds"),
            ..Quantities::default()
        },
        Endpoint::RevealEmails => Quantities {
            emails: len_of(body, "personIds"),
            ..Quantities::default()
        },
        Endpoint::RevealPhones => Quantities {
            phones: len_of(body, "personIds"),
            ..Quantities::default()
        },
        Endpoint::AutocompleteCompanies
        | Endpoint::AutocompleteKeywords
        | Endpoint::AutocompleteJobTitles
        | Endpoint::AutocompleteLocations
        | Endpoint::AutocompleteSkills
        | Endpoint::EnrichCompany
        | Endpoint::DataFields
        | Endpoint::CreditBalance
        | Endpoint::WarmupCompanies
        | Endpoint::GetSegmentation
        | Endpoint::MarkSegmentationDomains
        | Endpoint::AttributeSegmentationDomains => Quantities {
            results: 1,
            ..Quantities::default()
        },
    }
}

/// What a webhook delivery's results cost (SPEC.md §6; NOTES.md: reveals are charged for what
/// is found, with the delivery): the one rule the store's ledger and the explorer's gauge both
/// use, so they never disagree.
///
/// - `reveal_emails` / `reveal_phones`: the body's `creditsUsed` when the service set it (> 0),
///   in that reveal's pool; else one email or phone credit per verified contact.
/// - `people_search_emails` / `people_search_phones`, `enrich_person_email` / `_phone`: one
///   email or phone credit per verified contact of a person with an id.
/// - `enrich_companies` / `enrich_people`: standard credits, the body's `creditsUsed` when set,
///   else the price of each record found.
impl crate::types::webhooks::WebhookBody {
    /// The credits this delivery charges, per pool; see the rule above.
    pub fn charge(&self) -> Cost {
        use crate::types::webhooks::WebhookBody as W;
        use crate::types::{EmailStatus, Person, PhoneStatus};
        let stated = |x: f64| (x.is_finite() && x > 0.0).then_some(x);
        let standard = |endpoint, found: usize, used: f64| Cost {
            standard: stated(used).unwrap_or_else(|| {
                DEFAULT_PRICES
                    .charge_for(
                        endpoint,
                        &Quantities {
                            results: found as u64,
                            ..Quantities::default()
                        },
                    )
                    .standard
            }),
            ..Cost::ZERO
        };
        let verified_emails = |people: &mut dyn Iterator<Item = &Person>| {
            people
                .filter(|p| !p.id.trim().is_empty())
                .filter(|p| {
                    p.email
                        .as_ref()
                        .is_some_and(|e| e.status == EmailStatus::Verified)
                })
                .count()
        };
        let verified_phones = |people: &mut dyn Iterator<Item = &Person>| {
            people
                .filter(|p| !p.id.trim().is_empty())
                .filter(|p| {
                    p.phone
                        .as_ref()
                        .is_some_and(|e| e.status == PhoneStatus::Verified)
                })
                .count()
        };
        let (emails, phones) = match self {
            W::EnrichCompanies(b) => {
                let found = b.companies.iter().filter(|c| c.company.is_some()).count();
                return standard(Endpoint::EnrichCompanies, found, b.credits_used);
            }
            W::EnrichPeople(b) => {
                let found = b.people.iter().filter(|p| p.person.is_some()).count();
                return standard(Endpoint::EnrichPeople, found, b.credits_used);
            }
            W::RevealEmails(r) => match stated(r.credits_used) {
                Some(x) => return Cost::in_pool(CreditPool::Email, x),
                None => (
                    r.emails
                        .iter()
                        .filter(|e| e.status == EmailStatus::Verified)
                        .count(),
                    0,
                ),
            },
            W::RevealPhones(r) => match stated(r.credits_used) {
                Some(x) => return Cost::in_pool(CreditPool::Phone, x),
                None => (
                    0,
                    r.phones
                        .iter()
                        .filter(|p| p.status == PhoneStatus::Verified)
                        .count(),
                ),
            },
            W::PeopleSearchEmails(s) => (
                verified_emails(&mut s.people.iter()),
                verified_phones(&mut s.people.iter()),
            ),
            W::PeopleSearchPhones(s) => (
                verified_emails(&mut s.people.iter()),
                verified_phones(&mut s.people.iter()),
            ),
            W::EnrichPersonEmail(p) | W::EnrichPersonPhone(p) => (
                verified_emails(&mut std::iter::once(&**p)),
                verified_phones(&mut std::iter::once(&**p)),
            ),
        };
        reveal_cost(prospect_common::ContactKind::Email, emails)
            + reveal_cost(prospect_common::ContactKind::Phone, phones)
    }
}

/// The most `results` records of a search at `endpoint` with this body can cost (the body's
/// lookalike domains and reveals priced too), from the one price table: the one estimate of
/// "N more results" that the CLI's plan, the explorer's `n` and its export all quote (issue
/// 35). Linear in `results`: 70 companies at 0.2 are 14 standard credits, however paged.
pub fn search_cost(endpoint: Endpoint, body: &Value, results: u64) -> Cost {
    let mut b = body.clone();
    if let Value::Object(m) = &mut b {
        m.insert("size".into(), Value::from(results));
    }
    DEFAULT_PRICES.charge_for(endpoint, &max_quantities(endpoint, &b))
}

/// The reveal endpoint of a contact kind: `/v2/reveal/emails` (SPEC.md §4.10) for emails,
/// `/v2/reveal/phones` (§4.7) for phones.
pub fn reveal_endpoint(kind: prospect_common::ContactKind) -> crate::client::Endpoint {
    match kind {
        prospect_common::ContactKind::Email => crate::client::Endpoint::RevealEmails,
        prospect_common::ContactKind::Phone => crate::client::Endpoint::RevealPhones,
    }
}

/// The most a reveal of `to_send` people's contacts of `kind` can spend, from the one price
/// table (NOTES.md: one email or phone credit per person revealed, charged only for what is
/// found; the estimate is the most).
pub fn reveal_cost(kind: prospect_common::ContactKind, to_send: usize) -> Cost {
    let mut q = Quantities::default();
    match kind {
        prospect_common::ContactKind::Email => q.emails = to_send as u64,
        prospect_common::ContactKind::Phone => q.phones = to_send as u64,
    }
    DEFAULT_PRICES.charge_for(reveal_endpoint(kind), &q)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn est(ep: Endpoint, body: Value) -> Cost {
        DEFAULT_PRICES
            .charge_for(ep, &max_quantities(ep, &body))
            .rounded()
    }

    #[test]
    fn estimates_follow_the_notes_table() {
        let std = |x| Cost {
            standard: x,
            ..Cost::ZERO
        };
        assert_eq!(
            est(Endpoint::SearchCompaniesV3, json!({"size": 100})),
            std(20.0)
        );
        assert_eq!(est(Endpoint::SearchCompaniesV2, json!({})), std(10.0));
        assert_eq!(est(Endpoint::SearchPeopleV3, json!({"size": 5})), std(1.0));
        assert_eq!(
            est(Endpoint::SearchPeoplePreview, json!({"size": 50})),
            std(10.0)
        );
        assert_eq!(
            est(Endpoint::SearchPeopleV2, json!({"size": 10})),
            std(10.0)
        );
        assert_eq!(
            est(
                Endpoint::SearchPeopleV2,
                json!({"size": 10, "companiesFilters": {"lookalikeDomains": ["a.com"]},
                       "revealEmails": {"includeEmails": true},
                       "revealPhones": {"includePhones": false}})
            ),
            Cost {
                standard: 30.0,
                email: 10.0,
                phone: 0.0
            }
        );
        assert_eq!(
            est(
                Endpoint::SearchPeopleV2,
                json!({"size": 10, "companiesFilters": {"lookalikeDomains": []}})
            ),
            std(10.0)
        );
        assert_eq!(
            est(
                Endpoint::EnrichPerson,
                json!({"person": {"name": "x"}, "revealPhones": {"includePhones": true}})
            ),
            Cost {
                standard: 3.0,
                email: 0.0,
                phone: 1.0
            }
        );
        assert_eq!(est(Endpoint::EnrichCompany, json!({})), std(0.1));
        assert_eq!(
            est(
                Endpoint::LookupCompanies,
                json!({"domains": ["a", "b", "c"]})
            ),
            std(0.15)
        );
        assert_eq!(
            est(
                Endpoint::LookupPeople,
                json!({"linkedinHandles": ["a"], "serviceIds": ["b", "c", "d"]})
            ),
            std(0.2)
        );
        assert_eq!(
            est(Endpoint::RevealEmails, json!({"personIds": ["1", "2"]})),
            Cost::in_pool(CreditPool::Email, 2.0)
        );
        assert_eq!(
            est(
                Endpoint::RevealPhones,
                json!({"personIds": ["1", "2", "3"]})
            ),
            Cost::in_pool(CreditPool::Phone, 3.0)
        );
        for ep in [
            Endpoint::AutocompleteCompanies,
            Endpoint::AutocompleteKeywords,
            Endpoint::AutocompleteJobTitles,
            Endpoint::AutocompleteLocations,
            Endpoint::AutocompleteSkills,
        ] {
            assert_eq!(estimate_endpoint(ep).rounded(), std(0.1));
        }
        for ep in [
            Endpoint::DataFields,
            Endpoint::CreditBalance,
            Endpoint::WarmupCompanies,
        ] {
            assert!(estimate_endpoint(ep).is_zero());
        }
    }

    #[test]
    fn charges_only_what_was_returned() {
        let p = PriceTable::default();
        let q = |results, emails, phones| Quantities {
            results,
            lookalike_domains: false,
            emails,
            phones,
        };
        assert!(p.charge_for(Endpoint::EnrichPerson, &q(0, 0, 0)).is_zero());
        assert!(
            p.charge_for(Endpoint::SearchCompaniesV3, &q(0, 0, 0))
                .is_zero()
        );
        assert_eq!(
            p.charge_for(Endpoint::RevealPhones, &q(0, 0, 4)),
            Cost::in_pool(CreditPool::Phone, 4.0)
        );
        // Reveals cannot leak into endpoints that do not reveal.
        assert!(p.charge_for(Endpoint::LookupPeople, &q(0, 5, 5)).is_zero());
        assert_eq!(
            p.charge_for(Endpoint::SearchPeopleV3, &q(3, 1, 2))
                .rounded(),
            Cost {
                standard: 0.6,
                email: 1.0,
                phone: 2.0
            }
        );
        assert_eq!(Cost::ZERO.to_string(), "free");
        assert_eq!(
            Cost {
                standard: 3.0,
                email: 1.0,
                phone: 0.0
            }
            .to_string(),
            "3 credits + 1 email"
        );
    }
}
