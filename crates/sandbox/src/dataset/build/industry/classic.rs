//! The classic LinkedIn industry of a V2 label (see [`super`]).

/// Classic LinkedIn industry (PDL lowercase name) for a V2 label, where the best word-overlap
/// match is good enough (Jaccard >= 0.5), else from a small table of explicit pairs, else `None`.
pub fn classic_for(v2: &str, classic: &[String]) -> Option<String> {
    const EXPLICIT: &[(&str, &str)] = &[
        ("Software Development", "computer software"),
        (
            "IT Services and IT Consulting",
            "information technology and services",
        ),
        ("Technology, Information and Internet", "internet"),
        ("Hospitals and Health Care", "hospital & health care"),
        ("Biotechnology Research", "biotechnology"),
        ("Pharmaceutical Manufacturing", "pharmaceuticals"),
        ("Medical Equipment Manufacturing", "medical devices"),
        ("Motor Vehicle Manufacturing", "automotive"),
        ("Motor Vehicle Parts Manufacturing", "automotive"),
        ("Oil and Gas", "oil & energy"),
        ("Oil Extraction", "oil & energy"),
        ("Oil, Gas, and Mining", "oil & energy"),
        ("Mining", "mining & metals"),
        ("Metal Ore Mining", "mining & metals"),
        ("Coal Mining", "mining & metals"),
        ("Primary Metal Manufacturing", "mining & metals"),
        ("Financial Services", "financial services"),
        ("Capital Markets", "capital markets"),
        ("Credit Intermediation", "banking"),
        ("Investment Management", "investment management"),
        ("Real Estate", "real estate"),
        (
            "Leasing Non-residential Real Estate",
            "commercial real estate",
        ),
        ("Semiconductor Manufacturing", "semiconductors"),
        (
            "Renewable Energy Semiconductor Manufacturing",
            "renewables & environment",
        ),
        (
            "Renewable Energy Power Generation",
            "renewables & environment",
        ),
        ("Computer Hardware Manufacturing", "computer hardware"),
        (
            "Computers and Electronics Manufacturing",
            "consumer electronics",
        ),
        (
            "Appliances, Electrical, and Electronics Manufacturing",
            "electrical/electronic manufacturing",
        ),
        (
            "Electrical Equipment Manufacturing",
            "electrical/electronic manufacturing",
        ),
        (
            "Communications Equipment Manufacturing",
            "telecommunications",
        ),
        ("Telecommunications Carriers", "telecommunications"),
        ("Wireless Services", "wireless"),
        ("Industrial Machinery Manufacturing", "machinery"),
        ("Machinery Manufacturing", "machinery"),
        (
            "Agriculture, Construction, Mining Machinery Manufacturing",
            "machinery",
        ),
        ("Chemical Manufacturing", "chemicals"),
        ("Agricultural Chemical Manufacturing", "chemicals"),
        ("Food and Beverage Manufacturing", "food production"),
        ("Beverage Manufacturing", "beverages"),
        ("Retail Groceries", "supermarkets"),
        ("Online and Mail Order Retail", "internet"),
        ("Internet Marketplace Platforms", "internet"),
        ("Social Networking Platforms", "internet"),
        ("Internet Publishing", "online media"),
        (
            "Data Infrastructure and Analytics",
            "information technology and services",
        ),
        ("IT System Custom Software Development", "computer software"),
        (
            "IT System Design Services",
            "information technology and services",
        ),
        (
            "Electric Power Transmission, Control, and Distribution",
            "utilities",
        ),
        ("Electric Power Generation", "utilities"),
        ("Natural Gas Distribution", "utilities"),
        ("Water Supply and Irrigation Systems", "utilities"),
        ("Holding Companies", "financial services"),
        ("Funds and Trusts", "investment management"),
        (
            "Venture Capital and Private Equity Principals",
            "venture capital & private equity",
        ),
        (
            "Aviation and Aerospace Component Manufacturing",
            "aviation & aerospace",
        ),
        ("Airlines and Aviation", "airlines/aviation"),
        ("Defense and Space Manufacturing", "defense & space"),
        (
            "Freight and Package Transportation",
            "logistics and supply chain",
        ),
        (
            "Transportation, Logistics, Supply Chain and Storage",
            "logistics and supply chain",
        ),
        ("Truck Transportation", "transportation/trucking/railroad"),
        ("Rail Transportation", "transportation/trucking/railroad"),
        ("Pipeline Transportation", "oil & energy"),
        (
            "Robot Manufacturing",
            "mechanical or industrial engineering",
        ),
        (
            "Engineering Services",
            "mechanical or industrial engineering",
        ),
        ("Wholesale Drugs and Sundries", "wholesale"),
        ("Wholesale Building Materials", "building materials"),
        (
            "Glass, Ceramics and Concrete Manufacturing",
            "building materials",
        ),
        ("Medical and Diagnostic Laboratories", "medical devices"),
        (
            "Wellness and Fitness Services",
            "health, wellness and fitness",
        ),
        ("Personal Care Product Manufacturing", "cosmetics"),
        ("Soap and Cleaning Product Manufacturing", "consumer goods"),
        ("Household Appliance Manufacturing", "consumer goods"),
        ("Consumer Services", "consumer services"),
        ("Hospitality", "hospitality"),
        ("Hotels and Motels", "hospitality"),
        ("E-Learning Providers", "e-learning"),
        ("Blockchain Services", "financial services"),
        ("Security and Investigations", "security and investigations"),
        ("Retail Apparel and Fashion", "apparel & fashion"),
        ("Apparel Manufacturing", "apparel & fashion"),
        ("Textile Manufacturing", "textiles"),
        ("Retail Luxury Goods and Jewelry", "luxury goods & jewelry"),
        ("Recreational Facilities", "leisure, travel & tourism"),
        ("Travel Arrangements", "leisure, travel & tourism"),
        ("Entertainment Providers", "entertainment"),
        (
            "Broadcast Media Production and Distribution",
            "broadcast media",
        ),
        ("Book and Periodical Publishing", "publishing"),
        ("Media Production", "media production"),
        ("Online Audio and Video Media", "online media"),
        ("Services for Renewable Energy", "renewables & environment"),
        ("Fabricated Metal Products", "mining & metals"),
        ("Marketing Services", "marketing and advertising"),
        ("Advertising Services", "marketing and advertising"),
    ];
    if let Some((_, c)) = EXPLICIT.iter().find(|(k, _)| *k == v2)
        && classic.iter().any(|x| x == c)
    {
        return Some(c.to_string());
    }
    let words = |s: &str| -> Vec<String> {
        s.to_lowercase()
            .replace('&', " and ")
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty() && *w != "and" && *w != "services" && *w != "manufacturing")
            .map(|w| w.trim_end_matches('s').to_string())
            .collect()
    };
    let a = words(v2);
    if a.is_empty() {
        return None;
    }
    let mut best: Option<(f64, &String)> = None;
    for c in classic {
        let b = words(c);
        if b.is_empty() {
            continue;
        }
        let inter = a.iter().filter(|w| b.contains(w)).count() as f64;
        let union = (a.len() + b.len()) as f64 - inter;
        let j = inter / union;
        if j >= 0.5 && best.is_none_or(|(bj, _)| j > bj) {
            best = Some((j, c));
        }
    }
    best.map(|(_, c)| c.clone())
}
