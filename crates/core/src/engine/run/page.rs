//! One page of a search, read from the store or bought ([`crate::engine::search_page`]).

use super::*;
use prospect_store::SearchId;

/// Page `page` of `req`'s search, read from the store or bought ([`crate::engine::search_page`]
/// without a set): the answer and its history row.
pub(crate) async fn buy_page(
    s: &Session,
    req: &SearchRequest,
    page: u32,
    fresh: Freshness,
) -> Result<(Paid<SearchResponse>, Option<SearchId>), ApiError> {
    // Suppressed entities go into the request as the API's exclude filters (issue 16).
    let (req, suppressed) = crate::suppress::apply_to_request(s, req).await;
    let req = &req;
    // Before the store is read: a page another process keeps after this is read, not
    // bought (the page is claimed as the engine's search claims it).
    let looked = crate::engine::looked_at(fresh == Freshness::Refresh);
    if fresh == Freshness::Stored
        && let Some(mut hit) = s.stored_search_page(req).await
    {
        s.join_page_contacts(&mut hit.0.value).await;
        suppressed.filter(&mut hit.0.value);
        hit.0.suppressed = suppressed.describe();
        return Ok(hit);
    }
    let key = page_key(s, req.endpoint(), req);
    let settles = if claim_one(s, &key, looked).await? {
        vec![key]
    } else {
        match s.stored_search_page(req).await {
            Some(mut hit) => {
                s.join_page_contacts(&mut hit.0.value).await;
                suppressed.filter(&mut hit.0.value);
                hit.0.suppressed = suppressed.describe();
                return Ok(hit);
            }
            // Settled, but nothing readable (kept in another's recovery file, or older
            // than search_fresh_for): bought again, unclaimed.
            None => Vec::new(),
        }
    };
    let result = match req {
        SearchRequest::CompaniesV3(r) => s
            .search_page_in(&**r, page, None, settles.clone())
            .await
            .map(|(p, id)| (p.map(SearchResponse::CompaniesV3), id)),
        SearchRequest::CompaniesV2(r) => s
            .search_page_in(&**r, page, None, settles.clone())
            .await
            .map(|(p, id)| (p.map(SearchResponse::CompaniesV2), id)),
        SearchRequest::PeopleV3(r) => s
            .search_page_in(&**r, page, None, settles.clone())
            .await
            .map(|(p, id)| (p.map(SearchResponse::PeopleV3), id)),
        SearchRequest::PeopleV2(r) => s
            .search_page_in(&**r, page, None, settles.clone())
            .await
            .map(|(p, id)| (p.map(SearchResponse::PeopleV2), id)),
    };
    if let Err(e) = &result
        && !e.may_have_charged()
        && !settles.is_empty()
    {
        s.release(settles).await;
    }
    let mut result = result;
    if let Ok((paid, _)) = &mut result {
        s.join_page_contacts(&mut paid.value).await;
        suppressed.filter(&mut paid.value);
        paid.suppressed = suppressed.describe();
    }
    result
}
