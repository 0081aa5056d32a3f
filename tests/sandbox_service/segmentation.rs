//! ICP segmentation over HTTP: the clustering quality on three clearly different industries
//! (the figures are printed), and the lifecycle (in progress, 412, marks, 404, 422, the charge).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use prospect::api::client::ForSegmentation;
use prospect::api::error::ApiError;
use prospect::api::types::*;
use prospect::sandbox::service::accounts::Plan;
use serde_json::json;

use crate::support::*;

/// Polls a segmentation until it is no longer in progress.
async fn finished(c: &prospect::api::client::Client, id: i64) -> Segmentation {
    let start = Instant::now();
    loop {
        let s = c.get_segmentation(id).await.expect("get segmentation");
        if s.status != SegmentationStatus::InProgress {
            return s;
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "segmentation {id} never ended"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// 50 companies of `industry` that are in none of `others`.
async fn of_industry(
    c: &prospect::api::client::Client,
    industry: &str,
    others: &[&str],
) -> Vec<String> {
    let d = company_domains(
        c,
        json!({"size": 50, "companiesFilters": {
            "industries": {"industries": [industry]},
            "excludeIndustries": others,
        }}),
    )
    .await;
    assert_eq!(d.len(), 50, "50 companies of {industry}");
    d
}

fn attribute(id: i64, domains: &[String]) -> ForSegmentation<AttributeDomainsRequest> {
    ForSegmentation {
        segmentation_id: id,
        body: AttributeDomainsRequest {
            domains: domains.to_vec(),
        },
    }
}

#[tokio::test]
async fn three_industries_segment_purely_and_further_companies_attribute_to_their_own() {
    let h = start(vec![]).await;
    let c = client(&h, RICH);
    let industries = [
        "Software Development",
        "Hospitals and Health Care",
        "Retail",
    ];
    let mut truth: HashMap<String, usize> = HashMap::new();
    let (mut seed, mut further) = (Vec::new(), Vec::new());
    for (i, ind) in industries.iter().enumerate() {
        let others: Vec<&str> = industries.iter().copied().filter(|o| o != ind).collect();
        let d = of_industry(&c, ind, &others).await;
        for x in &d {
            truth.insert(x.clone(), i);
        }
        seed.extend_from_slice(&d[..30]);
        further.extend_from_slice(&d[30..]);
    }
    let id = c
        .create_segmentation(&SegmentationInput {
            domains: seed.clone(),
            ..SegmentationInput::default()
        })
        .await
        .unwrap()
        .segmentation_id;
    let s = finished(&c, id).await;
    assert_eq!(s.status, SegmentationStatus::Successful);
    // Purity: the share of each segment's companies in its commonest industry, over all 90.
    let mut majority: HashMap<i64, usize> = HashMap::new();
    let mut pure = 0;
    let mut total = 0;
    for seg in &s.segments {
        let mut counts = [0usize; 3];
        for d in &seg.domains {
            counts[truth[d]] += 1;
        }
        let (best, n) = counts.iter().enumerate().max_by_key(|x| *x.1).unwrap();
        majority.insert(seg.segment_id, best);
        pure += n;
        total += seg.domains.len();
        assert_eq!(seg.company_count as usize, seg.domains.len());
        assert!(seg.lookalike_count.is_some_and(|n| n > 0), "{seg:?}");
        let traits = seg.traits.as_ref().unwrap();
        assert!(!traits.is_empty() && traits[0].score == 1.0, "{traits:?}");
        assert!(seg.crm_metrics.is_none(), "no CRM in the sandbox");
        println!(
            "segment {} {:?}: {} companies {counts:?}, {} lookalikes",
            seg.segment_id,
            seg.name,
            seg.company_count,
            seg.lookalike_count.unwrap()
        );
    }
    assert_eq!(total, 90, "every company in one segment");
    let purity = pure as f64 / total as f64;
    // Attribution of 20 further companies of each industry.
    let a = c
        .attribute_segmentation_domains(&attribute(id, &further))
        .await
        .unwrap();
    assert_eq!(a.total_requested, 60);
    assert_eq!(a.results.len(), 60);
    let mut right = 0;
    for (r, d) in a.results.iter().zip(&further) {
        assert_eq!(&r.domain, d, "in input order");
        if let Some(seg) = r.segment_id {
            let score = r.score.unwrap();
            assert!((0.0..=1.0).contains(&score));
            if majority[&seg] == truth[d] {
                right += 1;
            }
        } else {
            assert!(r.score.is_none());
        }
    }
    let attributed = right as f64 / 60.0;
    println!(
        "segmentation of 90 companies of 3 industries: {} segments, purity {:.1}%; attribution of \
         60 more: {:.1}% to the segment of their industry ({} attributed)",
        s.segments.len(),
        purity * 100.0,
        attributed * 100.0,
        a.total_attributed
    );
    assert!(purity >= 0.9, "purity {purity}");
    assert!(attributed >= 0.8, "attribution {attributed}");
    h.shutdown().await;
}

#[tokio::test]
async fn a_segmentation_is_charged_once_runs_then_attributes_and_marks_steer_it() {
    let h = start(vec![
        account("seg", Plan::Standard, 100.0, 0.0, 0.0),
        account("other", Plan::Standard, 100.0, 0.0, 0.0),
    ])
    .await;
    let c = client(&h, "seg");
    let domains = company_domains(&c, json!({"size": 12})).await;
    let before = c.credit_balance().await.unwrap().credits.unwrap().total();
    let mut input = domains.clone();
    input.push(domains[0].to_uppercase()); // the same company twice
    input.push("no-such-company-zz.com".into());
    let id = c
        .create_segmentation(&SegmentationInput {
            domains: input,
            ..SegmentationInput::default()
        })
        .await
        .unwrap()
        .segmentation_id;
    let after = c.credit_balance().await.unwrap().credits.unwrap().total();
    // 12 known + 1 unknown distinct domains at 0.1.
    assert!((before - after - 1.3).abs() < 1e-9, "{before} → {after}");
    // In progress: attribution waits for it.
    let early = c
        .attribute_segmentation_domains(&attribute(id, &domains[..2]))
        .await;
    let s = c.get_segmentation(id).await.unwrap();
    if s.status == SegmentationStatus::InProgress {
        assert_eq!(early.unwrap_err(), ApiError::SegmentationNotReady);
        assert!(s.segments.is_empty());
    }
    let s = finished(&c, id).await;
    assert_eq!(s.status, SegmentationStatus::Successful);
    assert!(s.total_addressable_market.is_some());
    assert_eq!(s.total_untouched, None);
    // Another account does not see it.
    let other = client(&h, "other");
    assert!(matches!(
        other.get_segmentation(id).await,
        Err(ApiError::NotFound { .. })
    ));
    // A member attributes to its own segment; marked negative, it is unattributed.
    let member = s.segments[0].domains[0].clone();
    let a = c
        .attribute_segmentation_domains(&attribute(id, std::slice::from_ref(&member)))
        .await
        .unwrap();
    assert_eq!(a.results[0].segment_id, Some(s.segments[0].segment_id));
    let ok = c
        .mark_segmentation_domains(&ForSegmentation {
            segmentation_id: id,
            body: AddMarkedDomainsInput {
                domains: vec![member.clone()],
                kind: MarkType::Negative,
            },
        })
        .await
        .unwrap();
    assert_eq!(ok.status, "ok");
    let a = c
        .attribute_segmentation_domains(&attribute(id, std::slice::from_ref(&member)))
        .await
        .unwrap();
    assert_eq!(a.results[0].segment_id, None);
    assert_eq!(a.total_attributed, 0);
    // Unknown ids, a bad id, too many domains.
    assert!(matches!(
        c.get_segmentation(id + 1000).await,
        Err(ApiError::NotFound { .. })
    ));
    let r = raw()
        .post(format!(
            "{}/v2/segmentation/abc/attribute-domains",
            h.base_url
        ))
        .header("x-api-token", "seg")
        .json(&json!({"domains": []}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 422);
    let body: serde_json::Value = r.json().await.unwrap();
    let kinds: Vec<&str> = body["detail"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["int_parsing", "too_short"], "{body}");
    let many = vec!["a.com".to_string(); 1001];
    assert!(matches!(
        c.attribute_segmentation_domains(&attribute(id, &many))
            .await,
        Err(ApiError::Invalid(_))
    ));
    // Nothing known: FAILED, and attribution is refused.
    let id = c
        .create_segmentation(&SegmentationInput {
            domains: vec!["no-such-company-zz.com".into()],
            ..SegmentationInput::default()
        })
        .await
        .unwrap()
        .segmentation_id;
    assert_eq!(finished(&c, id).await.status, SegmentationStatus::Failed);
    assert_eq!(
        c.attribute_segmentation_domains(&attribute(id, &domains[..1]))
            .await
            .unwrap_err(),
        ApiError::SegmentationNotReady
    );
    h.shutdown().await;
}
