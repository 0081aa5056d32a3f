use super::*;

#[test]
fn maps_sources_onto_v2() {
    assert_eq!(map_text("Banks - Regional"), Some("Banking"));
    assert_eq!(
        map_text("Software - Application"),
        Some("Software Development")
    );
    assert_eq!(map_text("Fintech -> Payments"), Some("Financial Services"));
    assert_eq!(map_text("Oil & Gas E&P"), Some("Oil Extraction"));
    assert_eq!(
        map_text("Packaged Foods"),
        Some("Food and Beverage Manufacturing")
    );
    assert_eq!(map_text("soil remediation"), None);
    assert_eq!(map_sector("Financials"), Some("Financial Services"));
}
