use super::*;

#[test]
fn interner_is_case_insensitive() {
    let mut i = Interner::default();
    let a = i.intern("Software Development");
    assert_eq!(i.intern("software development"), a);
    assert_eq!(i.get("SOFTWARE development"), Some(a));
    assert_eq!(i.name(a), "Software Development");
    assert_eq!(i.get("nope"), None);
}

#[test]
fn dates_and_names() {
    assert_eq!(parse_date("2021-03-04", false), Some(20210304));
    assert_eq!(parse_date("2021-03", true), Some(20210331));
    assert_eq!(parse_date("x", false), None);
    assert_eq!(normalize_company_name("Stripe, Inc."), "stripe");
    assert_eq!(
        normalize_company_name("  The  O'Neil_Group (Holdings) Co. Ltd "),
        "the oneil group"
    );
    assert_eq!(normalize_company_name("Inc."), "inc");
    assert_eq!(
        normalize_company_name("Société Générale S.A."),
        "societe generale s a"
    );
    assert_eq!(normalize_company_name("A/B-C\tD\nE"), "a b-c de");
    assert_eq!(
        company_field_bit("webTraffic.visits"),
        company_field_bit("webTraffic")
    );
}
