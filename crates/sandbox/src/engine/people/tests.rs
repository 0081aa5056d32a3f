use super::*;

/// Generating in two halves on two threads gives exactly the rows, ranges and id map of
/// one pass over every company.
#[test]
fn generation_in_halves_equals_one_pass() {
    use crate::engine::index::{self, RowView};
    use crate::engine::testdata;
    let ds = testdata::dataset();
    let views: Vec<RowView<'_>> = ds.companies.iter().map(RowView::of).collect();
    assert!(views.len() >= 3);
    let (_, cols, _) = index::build(&views, &ds.reference);
    let vocab = People::vocab(&ds.reference);
    let (rows, ranges, hashes) = vocab.generate_rows(&views, &cols, 0, 0);
    let (people, rows2, ranges2) = vocab.generate(&views, &cols);
    assert_eq!(format!("{rows:?}"), format!("{rows2:?}"));
    assert_eq!(ranges, ranges2);
    assert_eq!(people.by_domain_hash.len(), hashes.len());
    for (h, c) in hashes {
        assert_eq!(people.by_domain_hash.get(&h), Some(&c));
    }
}

#[test]
fn ids_round_trip_and_reject_garbage() {
    let id = person_id(hash_str("acme.io"), 7);
    assert_eq!(id.len(), 24);
    assert_eq!(id, person_id(hash_str("acme.io"), 7));
    assert_ne!(id, person_id(hash_str("acme.io"), 8));
    assert_eq!(
        linkedin_handle("https://www.linkedin.com/in/jane-doe-1a2b3c4d/"),
        "jane-doe-1a2b3c4d"
    );
    assert_eq!(ym_to_months(202001), 2020 * 12);
    assert_eq!(months_to_ym(ym_to_months(202012) + 1), 202101);
    assert_eq!(people_count(0), 3);
    assert_eq!(people_count(1_000_000), 26);
}

#[test]
fn people_are_stable_and_resolvable() {
    let a = crate::engine::testdata::db();
    let b = crate::engine::testdata::db();
    assert!(a.person_rows.len() > 25 * 3);
    for (i, (pa, pb)) in a.person_rows.iter().zip(&b.person_rows).enumerate() {
        let id = a.people.id(&a.companies, pa);
        assert_eq!(id, b.people.id(&b.companies, pb));
        assert_eq!(a.resolve_person_id(&id), Some(i as u32));
        let h = a.people.handle(pa);
        assert_eq!(
            a.resolve_handle(&format!("https://www.linkedin.com/in/{h}/")),
            Some(i as u32)
        );
    }
    assert_eq!(a.resolve_person_id("000000000000000000000000"), None);
    // Reserved email domains and fiction phone ranges only.
    for p in &a.person_rows {
        let c = a.people.contact(&a.companies, p);
        if let Some(e) = &c.email {
            assert!(e.ends_with(".example"), "{e}");
        }
        for ph in &c.phones {
            assert!(
                ph.starts_with("+1 555-01") || ph.starts_with("+44 7700 900"),
                "{ph}"
            );
        }
    }
    let verified = a.person_rows.iter().filter(|p| p.email_status == 0).count();
    assert!(verified * 100 / a.person_rows.len() > 35);
    // The first person of a small company is its founder.
    let acme = a.company_index("acme.io").unwrap();
    let first = a.person(a.cols[acme as usize].people.0);
    assert_eq!(a.people.titles[first.title as usize].title, "Founder & CEO");
    let exps = a.people.experiences(a.companies.base_len(), first);
    assert_eq!(exps[0].company, acme);
    assert!(exps.windows(2).all(|w| w[0].from > w[1].from));
}
