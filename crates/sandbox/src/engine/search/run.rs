//! The searches themselves (`Db::search_*`): matching, ranking and paging companies and
//! people, v2, v3 and preview, over what `super` prepares.

use super::*;

impl Db {
    /// All companies matching `q` (and having at least one person matching `people`, when
    /// given). With lookalike targets, companies are scored, the targets themselves are left
    /// out, and `min_score`/`bands` apply ([`Ranking::levels`]).
    fn company_matches(
        &self,
        q: &CompanyQuery,
        people: Option<&PeopleQuery>,
        r: &Ranking,
    ) -> Matches {
        if r.no_usable_target {
            return Matches::Keyed(Vec::new());
        }
        let people = people.filter(|p| !p.is_empty());
        let mut scratch = Scratch::default();
        let empty = q.is_empty();
        let mut keep = |i: u32| {
            if !empty && !q.matches(self, i) {
                return false;
            }
            match people {
                Some(pq) => {
                    let (s, e) = self.cols[i as usize].people;
                    (s..e).any(|pi| pq.matches(self, pi, &mut scratch))
                }
                None => true,
            }
        };
        if r.targets.is_empty() {
            let all = 0..self.companies.len() as u32;
            return Matches::Keyed(
                all.filter(|&i| keep(i))
                    .map(|i| (company_key(self, i), i))
                    .collect(),
            );
        }
        // Lookalike: the base companies in the levels' range come from one pass over the
        // targets' similarities (no level is computed); gathered companies are scored one by
        // one.
        let scorer = lookalike::CompanyScorer::new(self, &r.targets);
        let (lowest, highest) = r.levels();
        let base = scorer.base_len().min(self.companies.len()) as u32;
        let mut matches = scorer.within(lowest, highest);
        matches.extend(
            (base..self.companies.len() as u32)
                .filter_map(|i| scorer.gathered_within(self, i, lowest, highest)),
        );
        if !empty || people.is_some() {
            matches.retain(|m| keep(m.company));
        }
        Matches::Scored(matches)
    }

    /// All companies matching `q` (see [`Db::company_matches`]), ranked: `(key, company
    /// index)`, unordered.
    pub(crate) fn rank_companies(
        &self,
        q: &CompanyQuery,
        people: Option<&PeopleQuery>,
        r: &Ranking,
    ) -> Vec<(u64, u32)> {
        match self.company_matches(q, people, r) {
            Matches::Keyed(matches) => matches,
            Matches::Scored(matches) => keyed(&matches),
        }
    }

    /// The ranking of a company search whose page ends at the `wanted`-th match (the ranking
    /// is kept for its next pages): sorted whole without lookalike, and as far as `wanted`
    /// with it ([`ranked_scored`]).
    fn ranked_companies(
        &self,
        q: &CompanyQuery,
        people: Option<&PeopleQuery>,
        r: &Ranking,
        wanted: usize,
    ) -> Ranked {
        match self.company_matches(q, people, r) {
            Matches::Keyed(matches) => Ranked::sorted(matches),
            Matches::Scored(matches) => ranked_scored(matches, wanted),
        }
    }

    /// `POST /v2/search/companies` (SPEC.md §4.2): filters (§2.4, §2.5), lookalike ranking with
    /// `score` (0..1, `minScore` default 0.79 when `lookalikeDomains` are given), paging by
    /// `size`/`from` or `searchAfter`. Unknown lookalike domains are reported in
    /// `missingDomains` (`data gathering started`; `bad content` for a malformed domain;
    /// `missing context vector` for a known domain without industries, keywords and
    /// technologies). Errors: an invalid `searchAfter`.
    pub fn search_companies_v2(
        &self,
        req: &SearchCompaniesV2Request,
    ) -> Result<SearchCompaniesV2Response, Vec<ValidationError>> {
        self.search_companies_v2_with(req, records::company)
    }

    /// [`Db::search_companies_v2`] with each company record made by `record` (the service
    /// writes [`Db::record_json`], serialized once). The ranking of the request's filters is
    /// kept for its next pages ([`Db::ranked`]).
    pub fn search_companies_v2_with<C>(
        &self,
        req: &SearchCompaniesV2Request,
        record: impl Fn(&Db, u32) -> C,
    ) -> Result<SearchCompaniesV2Response<C>, Vec<ValidationError>> {
        let cursor = parse_cursor(req.search_after.as_deref(), CursorKind::Companies, |l| {
            self.company_cursor_label(l)
        })?;
        let empty = CompaniesFiltersV2::default();
        let f = req.companies_filters.as_ref().unwrap_or(&empty);
        let look = resolve_lookalike(self, f.lookalike_domains.as_deref());
        let ranking = Ranking {
            min_score: (!look.targets.is_empty())
                .then(|| f.min_score.unwrap_or(CompaniesFiltersV2::DEFAULT_MIN_SCORE)),
            no_usable_target: look.given && look.targets.is_empty(),
            targets: look.targets.clone(),
            ..Default::default()
        };
        let (from, size) = (clamp_from(req.from), clamp_size(req.size, MAX_SIZE));
        let wanted = if cursor.is_some() {
            usize::MAX
        } else {
            from.saturating_add(size)
        };
        let all = self.ranked(search_key("v2", f, req.people_filters.as_ref()), || {
            let q = compile::companies_v2(self, f);
            let pq = req
                .people_filters
                .as_ref()
                .map(|p| compile::people_v2(self, p));
            self.ranked_companies(&q, pq.as_ref(), &ranking, wanted)
        });
        let page = all.page(cursor, from, size, |c| {
            self.companies[c as usize].domain.clone()
        });
        let mut redirects = look.redirects;
        redirects_of(self, f.include_domains.as_deref(), &mut redirects);
        let lookalike = !ranking.targets.is_empty();
        Ok(SearchCompaniesV2Response {
            search_after: page.next.clone(),
            detail: "OK".into(),
            total: Some(page.total as i64),
            missing_domains: Some(look.missing).filter(|m| !m.is_empty()),
            redirect_map: Some(redirects).filter(|m| !m.is_empty()),
            credits_used: 0.0,
            companies: page
                .items
                .iter()
                .map(|&(key, c)| CompanyWithScore {
                    company: record(self, c),
                    score: lookalike.then(|| key_score(key)),
                })
                .collect(),
        })
    }

    fn ranking_v3(&self, f: &CompaniesFiltersV3, look: &Lookalike) -> Ranking {
        let bands = if f.min_relevance.is_some() || f.max_relevance.is_some() {
            // minRelevance is the worst band accepted, maxRelevance the best.
            let worst = f.min_relevance.as_ref().map(band_rank).unwrap_or(2);
            let best = f.max_relevance.as_ref().map(band_rank).unwrap_or(0);
            Some((best, worst))
        } else {
            Some((0, 2))
        };
        Ranking {
            targets: look.targets.clone(),
            min_score: None,
            bands,
            broad: f.company_matching_mode == Some(CompanyMatchingMode::Broad),
            no_usable_target: look.given && look.targets.is_empty(),
        }
    }

    /// `POST /v3/search/companies` (SPEC.md §4.10; openapi `PublicSearchCompaniesBodyV3`):
    /// v3 filters, lookalike ranking with `relevance` A/B/C (bands in [`crate::engine::lookalike`];
    /// `minRelevance` is the lowest band returned, `maxRelevance` the highest), paging by
    /// `searchAfter`. `missingDomains` as in v2; `includeDomainsStatuses` gives
    /// `data gathering started` for unknown `includeDomains`. Errors: an invalid `searchAfter`.
    pub fn search_companies_v3(
        &self,
        req: &SearchCompaniesV3Request,
    ) -> Result<SearchCompaniesV3Response, Vec<ValidationError>> {
        self.search_companies_v3_with(req, records::company)
    }

    /// [`Db::search_companies_v3`] with each company record made by `record`, as
    /// [`Db::search_companies_v2_with`].
    pub fn search_companies_v3_with<C>(
        &self,
        req: &SearchCompaniesV3Request,
        record: impl Fn(&Db, u32) -> C,
    ) -> Result<SearchCompaniesV3Response<C>, Vec<ValidationError>> {
        let cursor = parse_cursor(req.search_after.as_deref(), CursorKind::Companies, |l| {
            self.company_cursor_label(l)
        })?;
        let empty = CompaniesFiltersV3::default();
        let f = req.companies_filters.as_ref().unwrap_or(&empty);
        let look = resolve_lookalike(self, f.lookalike_domains.as_deref());
        let ranking = self.ranking_v3(f, &look);
        let size = clamp_size(req.size, MAX_SIZE);
        let wanted = if cursor.is_some() { usize::MAX } else { size };
        let all = self.ranked(search_key("v3", f, req.people_filters.as_ref()), || {
            let q = compile::companies_v3(self, f);
            let pq = req
                .people_filters
                .as_ref()
                .map(|p| compile::people_v3(self, p, 0.8));
            self.ranked_companies(&q, pq.as_ref(), &ranking, wanted)
        });
        let page = all.page(cursor, 0, size, |c| {
            self.companies[c as usize].domain.clone()
        });
        let mut redirects = look.redirects;
        redirects_of(self, f.include_domains.as_deref(), &mut redirects);
        let lookalike = !ranking.targets.is_empty();
        Ok(SearchCompaniesV3Response {
            search_after: page.next.clone(),
            detail: "OK".into(),
            total: Some(page.total as i64),
            missing_domains: Some(look.missing).filter(|m| !m.is_empty()),
            redirect_map: Some(redirects).filter(|m| !m.is_empty()),
            credits_used: 0.0,
            companies: page
                .items
                .iter()
                .map(|&(key, c)| CompanyWithRelevance {
                    company: record(self, c),
                    relevance: if lookalike {
                        lookalike::relevance_of(key_score(key), ranking.broad)
                    } else {
                        None
                    },
                })
                .collect(),
            include_domains_statuses: include_statuses(self, f.include_domains.as_deref()),
        })
    }

    /// `POST /v3/search/companies/preview` (openapi `PublicPreviewSearchCompaniesV3Body`): the
    /// first page of the v3 company search (same filters, same ranking), answered as masked
    /// company previews with their 1-based `ranking` and relevance; `size` 5..=50 (50 unset).
    pub fn search_companies_preview(
        &self,
        req: &SearchCompaniesPreviewRequest,
    ) -> Result<SearchCompaniesPreviewResponse, Vec<ValidationError>> {
        let v3 = self.search_companies_v3(&SearchCompaniesV3Request {
            size: Some(req.size_or_default().clamp(1, PREVIEW_MAX_SIZE)),
            companies_filters: req.companies_filters.clone(),
            people_filters: req.people_filters.clone(),
            ..SearchCompaniesV3Request::default()
        })?;
        Ok(SearchCompaniesPreviewResponse {
            total_hits: v3.total.unwrap_or(0),
            redirect_map: v3.redirect_map,
            credits_used: 0.0,
            companies: v3
                .companies
                .into_iter()
                .filter_map(|c| {
                    let i = self.company_index(&c.company.domain)?;
                    Some((records::preview_company(self, i), c.relevance))
                })
                .enumerate()
                .map(|(n, (company, relevance))| CompanyPreviewResult {
                    ranking: (n + 1) as i64,
                    relevance,
                    company,
                })
                .collect(),
        })
    }

    /// People of the ranked companies that match `pq`, at most `per_company` per company:
    /// `(key, person index)` where the key is the company's key (people of one company stay
    /// together, in ordinal order), unordered. Read from the people postings when a condition
    /// narrows ([`Db::people_from_postings`]), else by a scan of each company's people.
    pub(crate) fn collect_people(
        &self,
        companies: &[(u64, u32)],
        pq: &PeopleQuery,
        per_company: Option<usize>,
    ) -> Vec<(u64, u32)> {
        if !pq.is_empty()
            && let Some(found) = self.people_from_postings(companies, pq, per_company)
        {
            return found;
        }
        self.scan_people(companies, pq, per_company)
    }

    /// [`Db::collect_people`] by a scan of every person of each company (what the postings
    /// must answer the same as).
    pub(crate) fn scan_people(
        &self,
        companies: &[(u64, u32)],
        pq: &PeopleQuery,
        per_company: Option<usize>,
    ) -> Vec<(u64, u32)> {
        let empty = pq.is_empty();
        let mut out = Vec::new();
        let mut scratch = Scratch::default();
        // Text filters read a bounded number of texts (engine `caps`): the best-ranked
        // companies' people first.
        let ranked;
        let companies = if pq.texts.is_empty() {
            companies
        } else {
            let mut c = companies.to_vec();
            c.sort_unstable();
            ranked = c;
            &ranked[..]
        };
        for &(key, c) in companies {
            let (s, e) = self.cols[c as usize].people;
            let mut n = 0;
            for pi in s..e {
                if empty || pq.matches(self, pi, &mut scratch) {
                    out.push((key, pi));
                    n += 1;
                    if per_company.is_some_and(|m| n >= m) {
                        break;
                    }
                }
            }
        }
        out
    }

    /// `all` (people matches) ranked by their similarity to the people `targets` (lookalike
    /// people, SPEC.md §4.10): the targets themselves left out, and those outside the
    /// ranking's relevance bands; keyed by the inverted score above the company's rank.
    fn rank_like_people(
        &self,
        mut all: Vec<(u64, u32)>,
        targets: &[u32],
        ranking: &Ranking,
    ) -> Vec<(u64, u32)> {
        all.retain(|(_, pi)| !targets.contains(pi));
        let mut scorer = lookalike::PersonTargets::new(self, targets);
        all.into_iter()
            .filter_map(|(_, pi)| {
                let s = scorer.score(self, pi);
                let band = lookalike::relevance_of(s, ranking.broad)?;
                if let Some((best, worst)) = ranking.bands
                    && !(best..=worst).contains(&band_rank(&band))
                {
                    return None;
                }
                let rank =
                    self.cols[self.person_rows[pi as usize].company as usize].default_rank as u64;
                Some((
                    ((10_000 - lookalike::round_units(s * 10_000.0) as u64) << 32) | rank,
                    pi,
                ))
            })
            .collect()
    }

    /// `POST /v2/search/people` (SPEC.md §4.3): people matching `peopleFilters` at companies
    /// matching `companiesFilters` (lookalike domains rank the companies; `minScore` applies),
    /// `onePersonPerDomain` / `peoplePerCompany` cap the people per company, paging by
    /// `size`/`from` or `searchAfter`. Records carry no email/phone: the service reveals them
    /// with [`records::reveal_into`] when `revealEmails`/`revealPhones` ask. Errors: an invalid
    /// `searchAfter`.
    pub fn search_people_v2(
        &self,
        req: &SearchPeopleV2Request,
    ) -> Result<SearchPeopleV2Response, Vec<ValidationError>> {
        let cursor = parse_cursor(req.search_after.as_deref(), CursorKind::People, |l| {
            self.person_cursor_label(l)
        })?;
        let empty = CompaniesFiltersV2::default();
        let f = req.companies_filters.as_ref().unwrap_or(&empty);
        let look = resolve_lookalike(self, f.lookalike_domains.as_deref());
        let ranking = Ranking {
            min_score: (!look.targets.is_empty())
                .then(|| f.min_score.unwrap_or(CompaniesFiltersV2::DEFAULT_MIN_SCORE)),
            no_usable_target: look.given && look.targets.is_empty(),
            targets: look.targets.clone(),
            ..Default::default()
        };
        let per = if req.one_person_per_domain == Some(true) {
            Some(1)
        } else {
            req.people_per_company.map(|n| n.max(1) as usize)
        };
        // The ranking is kept for the search's next pages (and the same search again).
        let key = format!(
            "{}\u{1}{per:?}",
            search_key("people v2", f, req.people_filters.as_ref())
        );
        let all = self.ranked(key, || {
            let q = compile::companies_v2(self, f);
            let pq = req
                .people_filters
                .as_ref()
                .map(|p| compile::people_v2(self, p))
                .unwrap_or_default();
            let companies = self.rank_companies(&q, None, &ranking);
            Ranked::sorted(self.collect_people(&companies, &pq, per))
        });
        let page = all.page(
            cursor,
            clamp_from(req.from),
            clamp_size(req.size, MAX_SIZE),
            |p| {
                self.people
                    .id(&self.companies, &self.person_rows[p as usize])
            },
        );
        let mut redirects = look.redirects;
        redirects_of(self, f.include_domains.as_deref(), &mut redirects);
        Ok(SearchPeopleV2Response {
            people: page
                .items
                .iter()
                .map(|&(_, pi)| records::person(self, pi))
                .collect(),
            search_after: page.next.clone(),
            detail: "OK".into(),
            total: Some(page.total as i64),
            redirect_map: Some(redirects).filter(|m| !m.is_empty()),
            credits_used: 0.0,
        })
    }

    /// The v3 people search shared by [`Db::search_people_v3`] and [`Db::search_people_preview`]:
    /// the page, the relevance of each result, and the lookalike-handle statuses.
    #[allow(clippy::too_many_arguments)]
    fn people_v3_page(
        &self,
        companies_filters: Option<&CompaniesFiltersV3>,
        people_filters: Option<&prospect_api::types::filters_v3::PeopleFiltersV3>,
        per_company: Option<i64>,
        threshold: Option<f64>,
        search_after: Option<&str>,
        size: usize,
    ) -> Result<PeoplePage, Vec<ValidationError>> {
        let cursor = parse_cursor(search_after, CursorKind::People, |l| {
            self.person_cursor_label(l)
        })?;
        let empty = CompaniesFiltersV3::default();
        let f = companies_filters.unwrap_or(&empty);
        let look = resolve_lookalike(self, f.lookalike_domains.as_deref());
        let ranking = self.ranking_v3(f, &look);
        let per = per_company.map(|n| n.max(1) as usize);
        // Lookalike people: rank by similarity to the given profiles.
        let mut statuses = LookalikePeopleStatuses::default();
        let mut person_targets = Vec::new();
        for h in people_filters
            .and_then(|p| p.lookalike_linkedin_handles.as_deref())
            .unwrap_or(&[])
        {
            match self.resolve_handle(h) {
                Some(pi) => {
                    statuses.successful_people.push(h.clone());
                    if !person_targets.contains(&pi) {
                        person_targets.push(pi);
                    }
                }
                None => statuses.not_found_people.push(h.clone()),
            }
        }
        let broad = ranking.broad;
        // The ranking is kept for the search's next pages (and the same search again).
        let key = format!(
            "{}\u{1}{per:?}\u{1}{threshold:?}",
            search_key("people v3", f, people_filters)
        );
        let all = self.ranked(key, || {
            let q = compile::companies_v3(self, f);
            let pq = people_filters
                .map(|p| compile::people_v3(self, p, threshold.unwrap_or(0.8)))
                .unwrap_or_default();
            let companies = self.rank_companies(&q, None, &ranking);
            let all = self.collect_people(&companies, &pq, per);
            Ranked::sorted(if person_targets.is_empty() {
                all
            } else {
                self.rank_like_people(all, &person_targets, &ranking)
            })
        });
        let page = all.page(cursor, 0, size, |p| {
            self.people
                .id(&self.companies, &self.person_rows[p as usize])
        });
        let lookalike = !person_targets.is_empty() || !ranking.targets.is_empty();
        let rel = page
            .items
            .iter()
            .map(|&(key, _)| {
                if lookalike {
                    lookalike::relevance_of(key_score(key), broad)
                } else {
                    None
                }
            })
            .collect();
        let mut redirects = look.redirects;
        redirects_of(self, f.include_domains.as_deref(), &mut redirects);
        Ok((page, rel, statuses, redirects))
    }

    /// `POST /v3/search/people` (SPEC.md §4.10; openapi `PublicSearchPeopleBodyV3`): v3 people
    /// and company filters, `jobTitleThreshold` for approximate job-title keywords,
    /// `peoplePerCompany`, lookalike ranking by `lookalikeDomains` (companies) or
    /// `lookalikeLinkedinHandles` (people) with `relevance` A/B/C, paging by `searchAfter`.
    /// Records carry no email/phone (see [`records::reveal_into`]). Errors: an invalid `searchAfter`.
    pub fn search_people_v3(
        &self,
        req: &SearchPeopleV3Request,
    ) -> Result<SearchPeopleV3Response, Vec<ValidationError>> {
        self.search_people_v3_with(req, records::lookalike_person)
    }

    /// [`Db::search_people_v3`] with each result made by `record` (the service writes
    /// [`Db::lookalike_person_json`] when no contact is revealed, serialized once).
    pub fn search_people_v3_with<P>(
        &self,
        req: &SearchPeopleV3Request,
        record: impl Fn(&Db, u32, Option<Relevance>) -> P,
    ) -> Result<SearchPeopleV3Response<P>, Vec<ValidationError>> {
        let (page, rel, statuses, redirects) = self.people_v3_page(
            req.companies_filters.as_ref(),
            req.people_filters.as_ref(),
            req.people_per_company,
            req.job_title_threshold,
            req.search_after.as_deref(),
            clamp_size(req.size, MAX_SIZE),
        )?;
        let handles_given = req
            .people_filters
            .as_ref()
            .and_then(|p| p.lookalike_linkedin_handles.as_ref())
            .is_some_and(|h| !h.is_empty());
        Ok(SearchPeopleV3Response {
            people: page
                .items
                .iter()
                .zip(rel)
                .map(|(&(_, pi), r)| record(self, pi, r))
                .collect(),
            detail: "OK".into(),
            lookalike_people_statuses: handles_given.then_some(statuses),
            total: Some(page.total as i64),
            search_after: page.next.clone(),
            redirect_map: Some(redirects).filter(|m| !m.is_empty()),
            credits_used: 0.0,
            include_domains_statuses: include_statuses(
                self,
                req.companies_filters
                    .as_ref()
                    .and_then(|f| f.include_domains.as_deref()),
            ),
        })
    }

    /// `POST /v3/search/people/preview` (SPEC.md §4.10; openapi
    /// `PublicSearchPeopleBodyV3PreviewV3`): the v3 people search, answered with name, job title,
    /// a company preview and the 1-based `ranking` of each result (at most 50 per page).
    pub fn search_people_preview(
        &self,
        req: &SearchPeoplePreviewRequest,
    ) -> Result<SearchPeoplePreviewResponse, Vec<ValidationError>> {
        let (page, _rel, _statuses, redirects) = self.people_v3_page(
            req.companies_filters.as_ref(),
            req.people_filters.as_ref(),
            req.people_per_company,
            req.job_title_threshold,
            req.search_after.as_deref(),
            clamp_size(req.size, 50),
        )?;
        Ok(SearchPeoplePreviewResponse {
            detail: "OK".into(),
            total: Some(page.total as i64),
            redirect_map: Some(redirects).filter(|m| !m.is_empty()),
            credits_used: 0.0,
            people: page
                .items
                .iter()
                .enumerate()
                .map(|(n, &(_, pi))| PersonWithCompanyPreview {
                    ranking: (page.offset + n + 1) as i64,
                    person: records::person_preview(self, pi),
                    company: Some(records::preview_company(
                        self,
                        self.person_rows[pi as usize].company,
                    )),
                })
                .collect(),
        })
    }
}

fn include_statuses(db: &Db, domains: Option<&[String]>) -> Option<BTreeMap<String, DomainStatus>> {
    let m: BTreeMap<String, DomainStatus> = caps::domains(domains.unwrap_or(&[]))
        .iter()
        .filter(|d| db.company_index(d).is_none())
        .map(|d| {
            // What warmup ignores is an invalid domain here, not a gathering started.
            let status = if crate::engine::gathered::looks_like_domain(d) {
                DomainStatus::DataGatheringStarted
            } else {
                DomainStatus::InvalidDomain
            };
            (d.clone(), status)
        })
        .collect();
    (!m.is_empty()).then_some(m)
}
