//! The typed calls of the service, one per endpoint (SPEC.md §4): each checks its request,
//! sends it with the retry policy of [`crate::client`] and reads its answer.

use crate::client::Client;
use crate::endpoint::{Endpoint, Enriched, ForSegmentation, decode};
use crate::error::ApiError;
use crate::types::*;

impl Client {
    /// Endpoint 1, POST /v2/autocomplete/companies: company name suggestions (SPEC.md §4.1).
    /// Costs 0.1 credit per call.
    pub async fn autocomplete_companies(
        &self,
        req: &AutocompleteCompaniesRequest,
    ) -> Result<AutocompleteCompaniesResponse, ApiError> {
        self.send(req).await
    }

    /// Endpoint 2, POST /v2/autocomplete/keywords: keyword suggestions (SPEC.md §4.10, openapi.json).
    /// Costs 0.1 credit per call.
    pub async fn autocomplete_keywords(
        &self,
        req: &AutocompleteKeywordsRequest,
    ) -> Result<AutocompleteKeywordsResponse, ApiError> {
        self.send(req).await
    }

    /// Endpoint 3, POST /v2/autocomplete/job-titles: job title suggestions (SPEC.md §4.10).
    /// Costs 0.1 credit per call.
    pub async fn autocomplete_job_titles(
        &self,
        req: &AutocompleteJobTitlesRequest,
    ) -> Result<AutocompleteJobTitlesResponse, ApiError> {
        self.send(req).await
    }

    /// Endpoint 4, POST /v2/autocomplete/locations: location suggestions (SPEC.md §4.10).
    /// Costs 0.1 credit per call.
    pub async fn autocomplete_locations(
        &self,
        req: &AutocompleteLocationsRequest,
    ) -> Result<AutocompleteLocationsResponse, ApiError> {
        self.send(req).await
    }

    /// Endpoint 5, POST /v2/autocomplete/skills: skill suggestions (SPEC.md §4.10).
    /// Costs 0.1 credit per call.
    pub async fn autocomplete_skills(
        &self,
        req: &AutocompleteSkillsRequest,
    ) -> Result<AutocompleteSkillsResponse, ApiError> {
        self.send(req).await
    }

    /// Endpoint 6, POST /v2/search/companies (deprecated): lookalike company search, one page of
    /// `size` results from `from` or after `searchAfter` (SPEC.md §4.2). Refused before sending
    /// when `size`/`from` are out of 1..=10000 / 1..=10001 or `size + from > 10001`.
    /// Costs 0.2 credit per company returned. May answer `PlanNotSupported`.
    pub async fn search_companies_v2(
        &self,
        req: &SearchCompaniesV2Request,
    ) -> Result<SearchCompaniesV2Response, ApiError> {
        self.send(req).await
    }

    /// Endpoint 7, POST /v3/search/companies: lookalike company search with relevance A/B/C
    /// (SPEC.md §4.10, openapi.json). Costs 0.2 credit per company returned.
    pub async fn search_companies_v3(
        &self,
        req: &SearchCompaniesV3Request,
    ) -> Result<SearchCompaniesV3Response, ApiError> {
        self.send(req).await
    }

    /// Endpoint 8, POST /v2/search/people (legacy): people search (SPEC.md §4.3). Refused before sending
    /// on the v2 `size`/`from` limits, `searchAfter` with `onePersonPerDomain: true`,
    /// `peoplePerCompany` outside 1..=5. Costs 3 credits per person with `lookalikeDomains`,
    /// 1 without, plus reveal credits. May answer `PlanNotSupported`.
    pub async fn search_people_v2(
        &self,
        req: &SearchPeopleV2Request,
    ) -> Result<SearchPeopleV2Response, ApiError> {
        self.send(req).await
    }

    /// Endpoint 9, POST /v3/search/people: lookalike people search; each person has a `company` and a
    /// relevance (SPEC.md §4.10). `peoplePerCompany` 1..=20. Costs 0.2 credit per person, plus
    /// reveal credits (delivered by the `people_search_*` webhooks).
    pub async fn search_people_v3(
        &self,
        req: &SearchPeopleV3Request,
    ) -> Result<SearchPeopleV3Response, ApiError> {
        self.send(req).await
    }

    /// POST /v3/search/companies/preview (openapi.json): masked previews of the first page of a
    /// v3 company search, enterprise customers only (403 "You are not allowed to access this
    /// feature" otherwise); `size` 5..=50. Priced like the people preview, per result.
    pub async fn search_companies_preview(
        &self,
        req: &SearchCompaniesPreviewRequest,
    ) -> Result<SearchCompaniesPreviewResponse, ApiError> {
        self.send(req).await
    }

    /// POST /v2/enrich/companies (openapi.json): queues a batch of up to 10,000 companies keyed
    /// by the caller's ids; answers `{"status":"in progress"}`, and the results (with their
    /// charge, 0.1 credit per company found) come by the `enrich_companies` webhook.
    pub async fn enrich_companies(
        &self,
        req: &EnrichCompaniesRequest,
    ) -> Result<EnrichBatchAccepted, ApiError> {
        self.send(req).await
    }

    /// POST /v2/enrich/people (openapi.json): queues a batch of up to 10,000 people keyed by
    /// the caller's ids; answers `{"status":"in progress"}`, and the results (with their
    /// charge, 3 credits per person found) come by the `enrich_people` webhook.
    pub async fn enrich_people(
        &self,
        req: &EnrichPeopleRequest,
    ) -> Result<EnrichBatchAccepted, ApiError> {
        self.send(req).await
    }

    /// Endpoint 10, POST /v3/search/people/preview: people preview with company information, enterprise
    /// customers only (SPEC.md §4, §5); `size` at most 50. Priced like v3 search.
    pub async fn search_people_preview(
        &self,
        req: &SearchPeoplePreviewRequest,
    ) -> Result<SearchPeoplePreviewResponse, ApiError> {
        self.send(req).await
    }

    /// Endpoint 11, POST /v2/enrich/company: match one company (SPEC.md §4.10). `Found` on 200,
    /// `Gathering` on 201 (retry later). Refused before sending with [`ApiError::EmptyBody`]
    /// when no company data is given. Costs 0.1 credit when found.
    pub async fn enrich_company(
        &self,
        req: &EnrichCompanyRequest,
    ) -> Result<Enriched<EnrichCompanyResponse>, ApiError> {
        self.send(req).await
    }

    /// Endpoint 12, POST /v2/enrich/person: match one person (SPEC.md §4.4). `Found` on 200,
    /// `Gathering` on 201, [`ApiError::NotFound`] on 404 "No matching record found"; refused
    /// before sending with [`ApiError::EmptyPersonBody`] when `person` is empty. Costs 3
    /// credits when found, plus reveal credits.
    pub async fn enrich_person(
        &self,
        req: &EnrichPersonRequest,
    ) -> Result<Enriched<EnrichPersonResponse>, ApiError> {
        self.send(req).await
    }

    /// Endpoint 13, POST /v2/lookup/companies: up to 1000 domains (refused before sending above that or
    /// when empty); one entry per domain, unmatched → `company: null` (SPEC.md §4.5, NOTES.md).
    /// Costs 0.05 credit per company found.
    pub async fn lookup_companies(
        &self,
        req: &LookupCompaniesRequest,
    ) -> Result<LookupCompaniesResponse, ApiError> {
        self.send(req).await
    }

    /// Endpoint 14, POST /v2/lookup/people: `linkedinHandles` and/or `serviceIds`, at most 1000 in total
    /// (SPEC.md §4.6); only matched people come back. Costs 0.05 credit per person found.
    pub async fn lookup_people(
        &self,
        req: &LookupPeopleRequest,
    ) -> Result<LookupPeopleResponse, ApiError> {
        self.send(req).await
    }

    /// Endpoint 15, POST /v2/reveal/emails: 1..=500 person ids; the answer is an acknowledgement
    /// (`in progress` / `webhook sent`), results go to the `reveal_emails` webhook
    /// (SPEC.md §4.10, §6). Costs 1 email credit per verified email.
    pub async fn reveal_emails(
        &self,
        req: &RevealEmailsRequest,
    ) -> Result<RevealEmailsResponse, ApiError> {
        self.send(req).await
    }

    /// Endpoint 16, POST /v2/reveal/phones: 1..=500 person ids; acknowledgement, results to the
    /// `reveal_phones` webhook (SPEC.md §4.7, §6). Costs 1 phone credit per verified phone.
    pub async fn reveal_phones(
        &self,
        req: &RevealPhonesRequest,
    ) -> Result<RevealPhonesResponse, ApiError> {
        self.send(req).await
    }

    /// Endpoint 17, GET /v2/data-fields: reference data (SPEC.md §2.8, §4.8). Free; retried on
    /// timeouts and 5xx too.
    pub async fn data_fields(&self) -> Result<DataFields, ApiError> {
        let (_, body) = self
            .execute(Endpoint::DataFields, Endpoint::DataFields.path(), None)
            .await?;
        decode(&body)
    }

    /// Endpoint 18, GET /v2/credits/balance: the three pools and the daily allowance (SPEC.md §2.9,
    /// §4.9). Free; retried on timeouts and 5xx too.
    pub async fn credit_balance(&self) -> Result<CreditBalance, ApiError> {
        let (_, body) = self
            .execute(
                Endpoint::CreditBalance,
                Endpoint::CreditBalance.path(),
                None,
            )
            .await?;
        decode(&body)
    }

    /// Endpoint 19, POST /v2/warmup/companies: ask the service to gather data for up to 500 domains
    /// (openapi.json). Free.
    pub async fn warmup_companies(
        &self,
        req: &WarmupCompaniesRequest,
    ) -> Result<WarmupCompaniesResponse, ApiError> {
        self.send(req).await
    }

    /// POST /v2/segmentation (openapi.json): starts a segmentation of `domains` by
    /// `leadScoringFeatures`; answers its id at once, and it runs asynchronously (poll
    /// [`Client::get_segmentation`]). Costs 0.1 credit per distinct domain segmented
    /// ([`crate::cost`]).
    pub async fn create_segmentation(
        &self,
        req: &SegmentationInput,
    ) -> Result<SegmentationId, ApiError> {
        self.send(req).await
    }

    /// GET /v2/segmentation/{segmentation_id} (openapi.json): a segmentation, `IN_PROGRESS`,
    /// `SUCCESSFUL` with its segments, or `FAILED`. Free; retried on timeouts and 5xx.
    ///
    /// Errors: [`ApiError::NotFound`] for an id the account does not have.
    pub async fn get_segmentation(&self, segmentation_id: i64) -> Result<Segmentation, ApiError> {
        let ep = Endpoint::GetSegmentation;
        let (_, body) = self
            .execute(ep, &ep.path_for(segmentation_id), None)
            .await?;
        decode(&body)
    }

    /// POST /v2/segmentation/{segmentation_id}/markDomains (openapi.json): appends domains to
    /// the positive or negative list, which steers later attributions. Free.
    pub async fn mark_segmentation_domains(
        &self,
        req: &ForSegmentation<AddMarkedDomainsInput>,
    ) -> Result<StatusResponse, ApiError> {
        self.send(req).await
    }

    /// POST /v2/segmentation/{segmentation_id}/attribute-domains (openapi.json): each of 1..=1,000
    /// domains with its closest segment and a 0–1 score, or `null`s below the service's
    /// threshold. Free.
    ///
    /// Errors: [`ApiError::PreconditionFailed`]-class 412 "Segmentation must be re-run to enable
    /// attribution." while the segmentation has not succeeded.
    pub async fn attribute_segmentation_domains(
        &self,
        req: &ForSegmentation<AttributeDomainsRequest>,
    ) -> Result<AttributeDomainsResponse, ApiError> {
        self.send(req).await
    }
}
