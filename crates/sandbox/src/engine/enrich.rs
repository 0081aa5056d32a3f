//! Enrich match (SPEC.md §2.7, §4.4), lookup (§4.5, §4.6), person by id, data fields (§2.8),
//! and the record of a company whose "data gathering" finished.

use std::collections::BTreeMap;

use crate::dataset::load::Db;
use prospect_api::types::account::{DataFields, IndustryGroup, Region, Technology};
use prospect_api::types::common::{Department, Seniority};
use prospect_api::types::company::Company;
use prospect_api::types::enrich::{
    CompanyMatch, EnrichCompanyRequest, EnrichCompanyResponse, EnrichPersonRequest,
    EnrichPersonResponse, PersonMatch,
};
use prospect_api::types::lookup::{
    LookupCompaniesRequest, LookupCompaniesResponse, LookupCompanyEntry, LookupPeopleRequest,
    LookupPeopleResponse,
};
use prospect_api::types::person::Person;
use prospect_api::types::webhooks::MatchStatus;

use super::fold;
use super::index::{media_bit, normalize_company_name, phone_digits};
use super::people::PersonContact;
use super::{caps, normalize_domain, records};

/// Email providers whose domain says nothing about the employer.
const FREEMAIL: [&str; 8] = [
    "gmail.com",
    "googlemail.com",
    "yahoo.com",
    "hotmail.com",
    "outlook.com",
    "icloud.com",
    "aol.com",
    "gmx.de",
];

/// The handle in a social profile URL or handle (`https://x.com/acme/` → `acme`, `@acme` → `acme`).
pub fn social_handle(s: &str) -> String {
    let s = s.trim().trim_end_matches('/');
    let last = s.rsplit('/').next().unwrap_or(s);
    last.trim_start_matches('@')
        .split('?')
        .next()
        .unwrap_or("")
        .to_lowercase()
}

/// How a person's inputs matched ([`Db::match_person_how`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PersonMatched {
    /// One person (its index).
    One(u32),
    /// Several equally well (the first of them): the batch's `Too many matches`.
    Many(u32),
    /// Nobody.
    NoMatch,
}

impl Db {
    /// Matches a company on the inputs of SPEC.md §2.7, in order: `domain`, the domain of
    /// `email`, the social handles (`linkedin`, `twitter`, `facebook`, `instagram`, `xing`,
    /// `youtube`, as URL or handle), `phone`, then `name` (legal suffixes ignored; with several
    /// homonyms, the one in `countryCode`, then the best ranked). Returns the company index.
    pub fn match_company(&self, m: &CompanyMatch) -> Option<u32> {
        if let Some(d) = m.domain.as_deref().filter(|d| !d.trim().is_empty())
            && let Some(i) = self.company_index(d)
        {
            return Some(i);
        }
        if let Some(e) = m.email.as_deref()
            && let Some((_, dom)) = e.trim().rsplit_once('@')
            && !FREEMAIL.contains(&dom.to_lowercase().as_str())
            && let Some(i) = self.company_index(dom)
        {
            return Some(i);
        }
        let socials = [
            ("linkedin", &m.linkedin),
            ("twitter", &m.twitter),
            ("facebook", &m.facebook),
            ("instagram", &m.instagram),
            ("xing", &m.xing),
            ("youtube", &m.youtube),
        ];
        for (net, v) in socials {
            if let (Some(v), Some(bit)) = (v.as_deref(), media_bit(net)) {
                let h = social_handle(v);
                if let Some(i) = self.company_by_handle(bit, &h) {
                    return Some(i);
                }
            }
        }
        if let Some(p) = m.phone.as_deref() {
            let d = phone_digits(p);
            if d.len() >= 7
                && let Some(i) = self.company_by_phone(&d)
            {
                return Some(i);
            }
        }
        if let Some(n) = m.name.as_deref() {
            let key = normalize_company_name(caps::cut(n, caps::TERM_CHARS));
            let list = self.companies_named(&key);
            if !list.is_empty() {
                let cc = m.country_code.as_deref().map(|c| c.trim().to_lowercase());
                return list.iter().copied().min_by_key(|&i| {
                    let other_country = cc
                        .as_deref()
                        .is_some_and(|c| self.companies[i as usize].country != c);
                    (other_country, self.cols[i as usize].default_rank)
                });
            }
        }
        None
    }

    /// `POST /v2/enrich/company` (SPEC.md §4.10, §2.7): the company record of the matched company,
    /// or `None` when nothing matches (the service answers 201 "data gathering has started" for
    /// an unknown domain, and finds it once gathered, see [`Db::with_gathered`]). When `company` is absent, the domains
    /// of the `people`'s emails are tried. `creditsUsed` is 0 (the service fills it).
    pub fn enrich_company(&self, req: &EnrichCompanyRequest) -> Option<EnrichCompanyResponse> {
        let i = req
            .company
            .as_ref()
            .and_then(|c| self.match_company(c))
            .or_else(|| {
                req.people.iter().find_map(|p| {
                    self.match_company(&CompanyMatch {
                        email: p.email.clone(),
                        ..Default::default()
                    })
                })
            })?;
        Some(EnrichCompanyResponse {
            company: records::company(self, i),
            credits_used: 0.0,
        })
    }

    /// Matches a person on the inputs of SPEC.md §2.7, in order: `id`, `linkedin` (URL or
    /// handle), `email` (the generated address), then `name`/`firstName`+`lastName` at the
    /// company matched from `company` (or from the email's domain), preferring a person whose
    /// job title contains `jobTitle`. Returns the person index; of several equally good, the
    /// first ([`Db::match_person_how`] tells them apart).
    pub fn match_person(&self, p: &PersonMatch, company: Option<&CompanyMatch>) -> Option<u32> {
        match self.match_person_how(p, company) {
            PersonMatched::One(i) | PersonMatched::Many(i) => Some(i),
            PersonMatched::NoMatch => None,
        }
    }

    /// [`Db::match_person`], saying whether the name matched several people equally well (the
    /// same name at the company, and no `jobTitle` that only one of them holds).
    pub fn match_person_how(
        &self,
        p: &PersonMatch,
        company: Option<&CompanyMatch>,
    ) -> PersonMatched {
        if let Some(id) = p.id.as_deref()
            && let Some(i) = self.resolve_person_id(id)
        {
            return PersonMatched::One(i);
        }
        if let Some(l) = p.linkedin.as_deref()
            && let Some(i) = self.resolve_handle(l)
        {
            return PersonMatched::One(i);
        }
        if let Some(e) = p.email.as_deref()
            && let Some(&i) = super::compile::email_ids(self, &[e.to_string()]).first()
        {
            return PersonMatched::One(i);
        }
        let Some(c) = company.and_then(|c| self.match_company(c)).or_else(|| {
            self.match_company(&CompanyMatch {
                email: p.email.clone(),
                ..Default::default()
            })
        }) else {
            return PersonMatched::NoMatch;
        };
        let cut = |s: &str| fold(caps::cut(s, caps::TERM_CHARS));
        let (first, last) = match (&p.first_name, &p.last_name, &p.name) {
            (Some(f), Some(l), _) => (cut(f), cut(l)),
            (_, _, Some(n)) => {
                let n = cut(n);
                let mut words = n.split_whitespace();
                let f = words.next().unwrap_or("").to_string();
                let l = words.last().unwrap_or("").to_string();
                (f, l)
            }
            _ => return PersonMatched::NoMatch,
        };
        let title = p.job_title.as_deref().map(cut);
        let titled = |pi: u32| {
            let t = &self.people.titles[self.person_rows[pi as usize].title as usize].lower;
            title.as_deref().is_some_and(|x| t.contains(x))
        };
        let (s, e) = self.cols[c as usize].people;
        let named: Vec<u32> = (s..e)
            .filter(|&pi| {
                let r = &self.person_rows[pi as usize];
                let (f, l) = self.people.names(r);
                fold(f) == first && (last.is_empty() || fold(l) == last)
            })
            .collect();
        let Some(best) = named
            .iter()
            .copied()
            .max_by_key(|&pi| (titled(pi), std::cmp::Reverse(pi)))
        else {
            return PersonMatched::NoMatch;
        };
        match named
            .iter()
            .filter(|&&pi| titled(pi) == titled(best))
            .count()
        {
            1 => PersonMatched::One(best),
            _ => PersonMatched::Many(best),
        }
    }

    /// `POST /v2/enrich/person` (SPEC.md §4.4): the person record (with experiences) of the
    /// matched person, or `None` (404 "No matching record found", or 201 for the service to
    /// decide). No email/phone: the service reveals them with [`records::reveal_into`].
    pub fn enrich_person(&self, req: &EnrichPersonRequest) -> Option<EnrichPersonResponse> {
        let pi = self.match_person(&req.person, req.company.as_ref())?;
        Some(EnrichPersonResponse {
            person: records::person(self, pi),
            credits_used: 0.0,
        })
    }

    /// An item of a batch people enrichment (openapi `MatchPeopleBody`): as
    /// [`Db::enrich_person`], but a name several people match equally well is not guessed:
    /// `Err(MatchStatus::TooManyMatches)`; `Err(NotFound)` when nothing matches.
    pub fn enrich_person_item(&self, req: &EnrichPersonRequest) -> Result<Person, MatchStatus> {
        match self.match_person_how(&req.person, req.company.as_ref()) {
            PersonMatched::One(pi) => Ok(records::person(self, pi)),
            PersonMatched::Many(_) => Err(MatchStatus::TooManyMatches),
            PersonMatched::NoMatch => Err(MatchStatus::NotFound),
        }
    }

    /// The company record (SPEC.md §2.3) of a domain or alias, `None` when unknown.
    pub fn company(&self, domain: &str) -> Option<Company> {
        self.company_index(domain)
            .map(|i| records::company(self, i))
    }

    /// The person record of a person id, `None` when unknown.
    pub fn person_by_id(&self, id: &str) -> Option<Person> {
        self.resolve_person_id(id)
            .map(|pi| records::person(self, pi))
    }

    /// The truth behind a reveal of a person id (SPEC.md §2.2, §4.7): email and phone with their
    /// statuses; `None` when the id is unknown.
    pub fn person_contact(&self, id: &str) -> Option<PersonContact> {
        let pi = self.resolve_person_id(id)?;
        Some(
            self.people
                .contact(&self.companies, &self.person_rows[pi as usize]),
        )
    }

    /// Fills `email`/`phone` of a person record from the truth behind a reveal
    /// (see [`records::reveal_into`]).
    pub fn reveal_into(&self, person: &mut Person, emails: bool, phones: bool) {
        records::reveal_into(self, person, emails, phones)
    }

    /// `POST /v2/lookup/companies` (SPEC.md §4.5, NOTES.md): one `{domain, company}` entry per
    /// requested domain, in request order; aliases (redirecting domains) are followed (the
    /// record's `redirectedFrom` names the alias, `redirectMap` maps it); `company: null` when
    /// unmatched. `totalRequested`, `totalFound`; `creditsUsed` 0 (the service fills it).
    pub fn lookup_companies(&self, req: &LookupCompaniesRequest) -> LookupCompaniesResponse {
        self.lookup_companies_with(req, |db, domain, found| LookupCompanyEntry::ByDomain {
            domain: domain.to_string(),
            company: found.map(|(i, alias)| {
                let mut c = records::company(db, i);
                if let Some(alias) = alias {
                    c.redirected_from = vec![alias.to_string()];
                }
                Box::new(c)
            }),
        })
    }

    /// [`Db::lookup_companies`] with each entry made by `entry(db, domain as requested,
    /// found)`, `found` being the company index and, when the domain is an alias of it, the
    /// normalized alias (the record's `redirectedFrom`). The service writes records serialized
    /// once ([`Db::record_json`]).
    pub fn lookup_companies_with<E: Send>(
        &self,
        req: &LookupCompaniesRequest,
        entry: impl Fn(&Db, &str, Option<(u32, Option<&str>)>) -> E + Sync,
    ) -> LookupCompaniesResponse<E> {
        let mut redirects = BTreeMap::new();
        // Building the records is most of the work: large lists are built on every core, in
        // request order.
        // (company index, the alias followed), and the entry.
        type Built<E> = (Option<(u32, Option<String>)>, E);
        let build = |d: &String| -> Built<E> {
            let n = normalize_domain(d);
            let found = self.company_index_normalized(&n).map(|i| {
                let canonical = &self.companies[i as usize].domain;
                (i, (*canonical != n).then_some(n.as_str()))
            });
            let e = entry(self, d, found);
            (found.map(|(i, alias)| (i, alias.map(str::to_string))), e)
        };
        let built: Vec<Built<E>> = if req.domains.len() >= 64 {
            super::par_map(&req.domains, build)
        } else {
            req.domains.iter().map(build).collect()
        };
        let mut found = 0;
        let companies = built
            .into_iter()
            .map(|(hit, e)| {
                if let Some((i, alias)) = hit {
                    found += 1;
                    if let Some(alias) = alias {
                        redirects.insert(alias, self.companies[i as usize].domain.clone());
                    }
                }
                e
            })
            .collect();
        LookupCompaniesResponse {
            companies,
            total_requested: req.domains.len() as i64,
            total_found: found,
            redirect_map: Some(redirects).filter(|m| !m.is_empty()),
            credits_used: 0.0,
        }
    }

    /// `POST /v2/lookup/people` (SPEC.md §4.6): the matched people only (by professional-network
    /// handle or URL, and by service person id), each once, in request order; totals.
    pub fn lookup_people(&self, req: &LookupPeopleRequest) -> LookupPeopleResponse {
        let handles = req.linkedin_handles.as_deref().unwrap_or(&[]);
        let ids = req.service_ids.as_deref().unwrap_or(&[]);
        let mut seen = Vec::new();
        for h in handles {
            if let Some(pi) = self.resolve_handle(h)
                && !seen.contains(&pi)
            {
                seen.push(pi);
            }
        }
        for id in ids {
            if let Some(pi) = self.resolve_person_id(id)
                && !seen.contains(&pi)
            {
                seen.push(pi);
            }
        }
        LookupPeopleResponse {
            total_requested: (handles.len() + ids.len()) as i64,
            total_found: seen.len() as i64,
            people: seen
                .iter()
                .map(|&pi| records::lookalike_person(self, pi, None))
                .collect(),
            credits_used: 0.0,
        }
    }

    /// `GET /v2/data-fields` (SPEC.md §2.8, NOTES.md: technologies as an array): industries by
    /// category, LinkedIn industries, technologies with categories, regions per lowercase country
    /// code (`code` is the abbreviation used by `states` filters, e.g. `CA` of `US-CA`),
    /// seniorities and departments: [`data_fields`] of the dataset's reference data.
    pub fn data_fields(&self) -> DataFields {
        data_fields(&self.reference)
    }
}

/// `GET /v2/data-fields` (SPEC.md §2.8, NOTES.md: technologies as an array) from the reference
/// data alone (the service answers it before the companies are indexed): industries by
/// category, LinkedIn industries, technologies with categories, regions per lowercase country
/// code (`code` is the abbreviation used by `states` filters, e.g. `CA` of `US-CA`),
/// seniorities and departments.
pub fn data_fields(r: &crate::dataset::format::Reference) -> DataFields {
    let mut regions: BTreeMap<String, Vec<Region>> = BTreeMap::new();
    for (cc, code, en, local) in &r.regions {
        regions.entry(cc.clone()).or_default().push(Region {
            code: Some(
                code.split_once('-')
                    .map(|x| x.1)
                    .unwrap_or(code)
                    .to_string(),
            ),
            english_name: Some(en.clone()),
            local_name: Some(local.clone()),
        });
    }
    DataFields {
        industries: r
            .industries
            .iter()
            .map(|(cat, inds)| IndustryGroup {
                industries: inds.clone(),
                industry_category: Some(cat.clone()),
            })
            .collect(),
        linkedin_industries: r.linkedin_industries.clone(),
        technologies: r
            .technologies
            .iter()
            .map(|(n, c)| Technology {
                name: Some(n.clone()),
                categories: c.clone(),
            })
            .collect(),
        regions,
        seniorities: Seniority::ALL.to_vec(),
        departments: Department::ALL.to_vec(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testdata;

    #[test]
    fn social_handles() {
        assert_eq!(
            social_handle("https://www.linkedin.com/company/acme/"),
            "acme"
        );
        assert_eq!(social_handle("@AcmeHQ"), "acmehq");
    }

    #[test]
    fn lookup_follows_aliases_and_keeps_order() {
        let db = testdata::db();
        let r = db.lookup_companies(&LookupCompaniesRequest {
            domains: vec![
                "nope.example".into(),
                "acme-old.com".into(),
                "https://www.paycorp.com/x".into(),
            ],
            fields: None,
        });
        assert_eq!(r.total_requested, 3);
        assert_eq!(r.total_found, 2);
        assert_eq!(r.companies[0].domain(), "nope.example");
        assert!(r.companies[0].company().is_none());
        let acme = r.companies[1].company().unwrap();
        assert_eq!(acme.domain, "acme.io");
        assert_eq!(acme.redirected_from, vec!["acme-old.com".to_string()]);
        assert_eq!(r.redirect_map.unwrap()["acme-old.com"], "acme.io");
        assert_eq!(r.companies[2].company().unwrap().domain, "paycorp.com");
    }

    #[test]
    fn enrich_company_matches_each_input() {
        let db = testdata::db();
        let acme = testdata::idx(&db, "acme.io");
        let m = |c: CompanyMatch| db.match_company(&c);
        assert_eq!(
            m(CompanyMatch {
                domain: Some("www.acme.io".into()),
                ..Default::default()
            }),
            Some(acme)
        );
        assert_eq!(
            m(CompanyMatch {
                email: Some("ceo@acme.io".into()),
                ..Default::default()
            }),
            Some(acme)
        );
        assert_eq!(
            m(CompanyMatch {
                linkedin: Some("https://www.linkedin.com/company/acme".into()),
                ..Default::default()
            }),
            Some(acme)
        );
        assert_eq!(
            m(CompanyMatch {
                twitter: Some("@acmehq".into()),
                ..Default::default()
            }),
            Some(acme)
        );
        assert_eq!(
            m(CompanyMatch {
                phone: Some("+1 (555) 0100".into()),
                ..Default::default()
            }),
            Some(acme)
        );
        assert_eq!(
            m(CompanyMatch {
                name: Some("ACME, Inc.".into()),
                ..Default::default()
            }),
            Some(acme)
        );
        assert_eq!(
            m(CompanyMatch {
                name: Some("Unknown Co".into()),
                ..Default::default()
            }),
            None
        );
        let r = db
            .enrich_company(&EnrichCompanyRequest {
                company: Some(CompanyMatch {
                    domain: Some("acme.io".into()),
                    ..Default::default()
                }),
                ..Default::default()
            })
            .unwrap();
        assert_eq!(r.company.name.as_deref(), Some("Acme"));
    }

    #[test]
    fn enrich_person_and_lookup_people() {
        let db = testdata::db();
        let acme = testdata::idx(&db, "acme.io");
        let pi = db.cols[acme as usize].people.0 + 1;
        let rec = records::person(&db, pi);
        let by = |p: PersonMatch, c: Option<CompanyMatch>| db.match_person(&p, c.as_ref());
        assert_eq!(
            by(
                PersonMatch {
                    id: Some(rec.id.clone()),
                    ..Default::default()
                },
                None
            ),
            Some(pi)
        );
        assert_eq!(
            by(
                PersonMatch {
                    linkedin: rec.linkedin_url.clone(),
                    ..Default::default()
                },
                None
            ),
            Some(pi)
        );
        let contact = db.person_contact(&rec.id).unwrap();
        let email = db
            .people
            .email(&db.companies[acme as usize], &db.person_rows[pi as usize]);
        assert_eq!(
            by(
                PersonMatch {
                    email: Some(email.to_uppercase()),
                    ..Default::default()
                },
                None
            )
            .map(|x| db.person_rows[x as usize].company),
            Some(acme)
        );
        let named = by(
            PersonMatch {
                first_name: rec.first_name.clone(),
                last_name: rec.last_name.clone(),
                ..Default::default()
            },
            Some(CompanyMatch {
                domain: Some("acme.io".into()),
                ..Default::default()
            }),
        )
        .unwrap();
        assert_eq!(
            db.people.names(&db.person_rows[named as usize]),
            db.people.names(&db.person_rows[pi as usize])
        );
        assert_eq!(contact.domain, "acme.io");
        let r = db.lookup_people(&LookupPeopleRequest {
            linkedin_handles: Some(vec![
                rec.linkedin_url.clone().unwrap(),
                "nobody-00000000".into(),
            ]),
            service_ids: Some(vec![rec.id.clone()]),
        });
        assert_eq!((r.total_requested, r.total_found), (3, 1));
        assert_eq!(r.people[0].person.id, rec.id);
        assert!(db.person_by_id(&rec.id).is_some());
        let mut p = rec.clone();
        db.reveal_into(&mut p, true, true);
        assert!(p.email.is_some() && p.phone.is_some());
    }

    #[test]
    fn data_fields_from_reference() {
        let db = testdata::db();
        let f = db.data_fields();
        assert_eq!(f.industries.len(), 4);
        assert_eq!(f.regions["us"][0].code.as_deref(), Some("CA"));
        assert_eq!(f.seniorities.len(), 10);
        assert_eq!(f.departments.len(), 24);
    }
}
