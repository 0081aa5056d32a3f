use super::*;

fn cols(ind: &[u32], kw: &[u32], emp: u32, country: u32) -> CompanyCols {
    CompanyCols {
        log_emp: (1.0 + emp as f64).log10() as f32,
        industries: ind.into(),
        categories: [ind[0] / 10].into(),
        keywords: kw.into(),
        employees: emp,
        country,
        ..Default::default()
    }
}

#[test]
fn same_profile_scores_one_and_unrelated_low() {
    let a = cols(&[1, 2], &[10, 11, 12], 100, 0);
    assert!((score_of(raw_pair(&a, &a)) - 0.9587).abs() < 0.001);
    let b = cols(&[55], &[90], 100_000, 3);
    assert!(score_of(raw_pair(&b, &a)) < 0.35);
    assert!((raw_for_score(score_of(0.5)) - 0.5).abs() < 1e-3);
    assert_eq!(relevance_of(0.9, false), Some(Relevance::A));
    assert_eq!(relevance_of(0.4, false), None);
    assert_eq!(relevance_of(0.4, true), Some(Relevance::C));
}

/// The score table gives `score_of` exactly: at every level boundary, next to it, and at
/// spread raw similarities.
#[test]
fn score_table_is_score_of() {
    let levels = Levels::get();
    let mut raws: Vec<f64> = (0..=200_000).map(|i| i as f64 / 200_000.0).collect();
    for &b in &levels.lo {
        raws.push(b);
        raws.push(f64::from_bits(b.to_bits() + 1));
        if b > 0.0 {
            raws.push(f64::from_bits(b.to_bits() - 1));
        }
    }
    for raw in raws {
        assert_eq!(levels.score(raw), score_of(raw), "raw {raw:e}");
    }
    // Each level's lowest raw similarity is of that level, and the one below it is not.
    for l in 0..=10_000u32 {
        let lo = lowest_raw(l);
        assert_eq!(levels.level(lo), l as usize, "level {l}");
        if lo > 0.0 {
            assert!(levels.level(f64::from_bits(lo.to_bits() - 1)) < l as usize);
        }
    }
    assert_eq!(lowest_raw(10_001), f64::INFINITY);
    // The lowest level reaching a score, against a scan of every level.
    let scan = |score: f64| {
        (0..=10_000u32)
            .find(|&l| l as f64 / 10_000.0 >= score)
            .unwrap_or(10_001)
    };
    for score in [
        -1.0f64, 0.0, 0.35, 0.5, 0.7, 0.79, 0.85, 1.0, 1.5, 0.123_45, 0.999_95,
    ] {
        for s in [score, f64::from_bits(score.to_bits() + 1), score - 1e-12] {
            assert_eq!(level_at_least(s), scan(s), "score {s}");
        }
    }
    for x in [
        0.0,
        0.4,
        0.5,
        0.49999999999999994,
        1.5,
        2.5,
        9999.5,
        1234.4999,
    ] {
        assert_eq!(round_units(x), x.round(), "{x}");
    }
}

/// [`TargetSet`] and [`CompanyScorer`] against `targets` give the formula's raw
/// similarities and scores for every company, and [`CompanyScorer::within`] gives exactly
/// the companies whose score is in a range of levels, with their scores, in the default
/// order.
fn prepared_companies_score_as_the_formula(db: &Db, targets: &[u32]) {
    let n = db.company_count() as u32;
    let set = TargetSet::new(db, targets);
    let scorer = CompanyScorer::new(db, targets);
    let mut raws = Vec::new();
    for c in 0..n {
        set.raws(db, c, &mut raws);
        for (t, r) in targets.iter().zip(&raws) {
            let want = raw_pair(&db.cols[c as usize], &db.cols[*t as usize]);
            assert!((r - want).abs() < 1e-9, "{c} {t}: {r} vs {want}");
        }
        let s = company_score(db, c, targets);
        assert_eq!(set.score_min(db, c, 0.0), Some(s));
        assert_eq!(scorer.score_min(db, c, 0.0), Some(s), "company {c}");
        assert_eq!(
            scorer.score_min(db, c, 0.8),
            set.score_min(db, c, 0.8),
            "company {c}"
        );
    }
    let levels = Levels::get();
    for (lowest, highest) in [(0, 10_000), (3_500, 10_000), (5_000, 6_999), (8_000, 8_499)] {
        let within = scorer.within(lowest, highest);
        let mut want: Vec<(u32, f64)> = (0..n)
            .filter(|c| !targets.contains(c))
            .filter_map(|c| {
                set.score_min(db, c, lowest as f64 / 10_000.0)
                    .map(|s| (c, s))
            })
            .filter(|&(_, s)| s <= highest as f64 / 10_000.0)
            .collect();
        want.sort_by_key(|&(c, _)| db.cols[c as usize].default_rank);
        let got: Vec<(u32, f64)> = within
            .iter()
            .map(|m| (m.company, levels.score(m.raw)))
            .collect();
        assert_eq!(
            got,
            want,
            "levels {lowest}..={highest}, {} targets",
            targets.len()
        );
        for m in &within {
            assert_eq!(m.level() as f64 / 10_000.0, levels.score(m.raw));
            assert_eq!(m.default_rank, db.cols[m.company as usize].default_rank);
        }
    }
}

/// The prepared forms give the formula's values.
#[test]
fn prepared_targets_score_as_the_formula() {
    let db = crate::engine::testdata::db();
    let n = db.company_count() as u32;
    // One and two targets have their own combining loops; three take the general one.
    for take in [1, 2, 3] {
        let targets: Vec<u32> = (0..n).step_by(7).take(take).collect();
        prepared_companies_score_as_the_formula(&db, &targets);
    }
    let people: Vec<u32> = (0..db.person_count() as u32).step_by(11).take(4).collect();
    let mut pt = PersonTargets::new(&db, &people);
    for p in 0..db.person_count() as u32 {
        let want = {
            let pr = &db.person_rows[p as usize];
            let pw = title_words(&db, pr);
            score_of(combine(people.iter().map(|&t| {
                let tr = &db.person_rows[t as usize];
                let tw = title_words(&db, tr);
                let common = pw.iter().filter(|x| tw.contains(x)).count();
                let union = pw.len() + tw.len() - common;
                let jt = if union == 0 {
                    0.0
                } else {
                    common as f64 / union as f64
                };
                0.35 * f64::from(pr.department == tr.department)
                    + 0.25 * f64::from(pr.seniority == tr.seniority)
                    + 0.15 * jt
                    + 0.25 * raw_pair(&db.cols[pr.company as usize], &db.cols[tr.company as usize])
            })))
        };
        assert_eq!(pt.score(&db, p), want, "person {p}");
    }
}
