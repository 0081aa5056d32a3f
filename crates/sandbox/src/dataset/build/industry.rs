//! Mapping of the sources' industry vocabularies (FinanceDatabase GICS-like and Yahoo-style
//! industries, YC industry/sub-industry/tags, Wikipedia free text, S&P GICS sub-industries) onto
//! LinkedIn V2 industries, and of V2 industries onto the classic LinkedIn list.
//!
//! How: an ordered table of (lowercase substring, V2 label); the first rule whose substring occurs
//! in the source text wins. Rules go from specific to generic. Labels are checked against
//! `industry_codes.json` at build time (a typo fails the build).

/// Ordered rules: (substring of the lowercase source text, LinkedIn V2 industry label).
pub const RULES: &[(&str, &str)] = &[
    // finance
    ("reit - healthcare", "Real Estate"),
    ("reit - mortgage", "Credit Intermediation"),
    ("reit", "Leasing Non-residential Real Estate"),
    (
        "real estate investment trust",
        "Leasing Non-residential Real Estate",
    ),
    ("closed-end fund", "Funds and Trusts"),
    ("shell compan", "Holding Companies"),
    ("multi-sector holding", "Holding Companies"),
    ("holding compan", "Holding Companies"),
    ("conglomerate", "Holding Companies"),
    ("reinsurance", "Insurance Carriers"),
    ("insurance broker", "Insurance Agencies and Brokerages"),
    ("healthcare plans", "Insurance"),
    ("insurance", "Insurance"),
    ("insurtech", "Insurance"),
    ("asset management", "Investment Management"),
    ("investment management", "Investment Management"),
    (
        "private equity",
        "Venture Capital and Private Equity Principals",
    ),
    (
        "venture capital",
        "Venture Capital and Private Equity Principals",
    ),
    ("investment bank", "Investment Banking"),
    (
        "financial data & stock exchange",
        "Securities and Commodity Exchanges",
    ),
    ("stock exchange", "Securities and Commodity Exchanges"),
    ("banking and exchange", "Banking"),
    ("capital markets", "Capital Markets"),
    ("mortgage", "Credit Intermediation"),
    ("thrifts", "Savings Institutions"),
    ("credit and lending", "Credit Intermediation"),
    ("credit services", "Credit Intermediation"),
    ("consumer finance", "Financial Services"),
    ("payments", "Financial Services"),
    ("bank", "Banking"),
    ("diversified investments", "Investment Management"),
    ("crypto", "Blockchain Services"),
    ("blockchain", "Blockchain Services"),
    ("web3", "Blockchain Services"),
    ("fintech", "Financial Services"),
    ("financ", "Financial Services"),
    ("accounting", "Accounting"),
    // health
    ("biotech", "Biotechnology Research"),
    ("drug discovery", "Biotechnology Research"),
    ("therapeutics", "Biotechnology Research"),
    ("industrial bio", "Biotechnology Research"),
    ("life sciences tools", "Research Services"),
    ("drug manufacturers", "Pharmaceutical Manufacturing"),
    ("pharmaceutical retail", "Retail Pharmacies"),
    ("pharmac", "Pharmaceutical Manufacturing"),
    ("medical distribution", "Wholesale Drugs and Sundries"),
    ("medical device", "Medical Equipment Manufacturing"),
    ("medical instruments", "Medical Equipment Manufacturing"),
    ("medical appliances", "Medical Equipment Manufacturing"),
    ("health care equipment", "Medical Equipment Manufacturing"),
    ("diagnostics", "Medical and Diagnostic Laboratories"),
    (
        "medical laboratories",
        "Medical and Diagnostic Laboratories",
    ),
    ("healthcare it", "Software Development"),
    ("health care technology", "Software Development"),
    ("health information services", "Software Development"),
    ("medical care facilities", "Hospitals and Health Care"),
    ("health care providers", "Hospitals and Health Care"),
    ("specialized health services", "Medical Practices"),
    ("healthcare services", "Hospitals and Health Care"),
    (
        "consumer health and wellness",
        "Wellness and Fitness Services",
    ),
    ("health", "Hospitals and Health Care"),
    ("hospital", "Hospitals"),
    ("medical", "Hospitals and Health Care"),
    // technology
    ("semiconductor equipment", "Semiconductor Manufacturing"),
    ("semiconductor", "Semiconductor Manufacturing"),
    ("solar", "Renewable Energy Semiconductor Manufacturing"),
    ("security & protection", "Security and Investigations"),
    (
        "computer and network security",
        "Computer and Network Security",
    ),
    ("cybersecurity", "Computer and Network Security"),
    ("b2b -> security", "Computer and Network Security"),
    ("security", "Computer and Network Security"),
    (
        "software - infrastructure",
        "IT System Custom Software Development",
    ),
    (
        "b2b -> infrastructure",
        "IT System Custom Software Development",
    ),
    ("developer tools", "Software Development"),
    ("analytics", "Data Infrastructure and Analytics"),
    (
        "information technology services",
        "IT Services and IT Consulting",
    ),
    ("it services", "IT Services and IT Consulting"),
    ("information technology", "IT Services and IT Consulting"),
    ("computer based systems", "IT System Design Services"),
    ("electronic gaming", "Computer Games"),
    ("gaming", "Computer Games"),
    ("video game", "Computer Games"),
    ("virtual and augmented reality", "Software Development"),
    ("social", "Social Networking Platforms"),
    ("interactive media", "Internet Publishing"),
    ("internet content", "Internet Publishing"),
    ("internet information", "Internet Publishing"),
    ("internet service provider", "Telecommunications"),
    (
        "internet & direct marketing retail",
        "Online and Mail Order Retail",
    ),
    ("internet retail", "Online and Mail Order Retail"),
    ("e-commerce", "Online and Mail Order Retail"),
    ("ecommerce", "Online and Mail Order Retail"),
    ("marketplace", "Internet Marketplace Platforms"),
    ("internet software", "Software Development"),
    ("internet", "Technology, Information and Internet"),
    ("software", "Software Development"),
    ("saas", "Software Development"),
    ("b2b -> ", "Software Development"),
    ("productivity", "Software Development"),
    ("artificial intelligence", "Software Development"),
    ("machine learning", "Software Development"),
    ("computer hardware", "Computer Hardware Manufacturing"),
    ("technology hardware", "Computer Hardware Manufacturing"),
    (
        "consumer electronics",
        "Computers and Electronics Manufacturing",
    ),
    (
        "electronics & computer distribution",
        "Wholesale Computer Equipment",
    ),
    (
        "electronic components",
        "Appliances, Electrical, and Electronics Manufacturing",
    ),
    (
        "electronic equipment",
        "Appliances, Electrical, and Electronics Manufacturing",
    ),
    (
        "diversified electronics",
        "Appliances, Electrical, and Electronics Manufacturing",
    ),
    ("electronics", "Computers and Electronics Manufacturing"),
    (
        "scientific & technical instruments",
        "Measuring and Control Instrument Manufacturing",
    ),
    (
        "communication equipment",
        "Communications Equipment Manufacturing",
    ),
    (
        "communications equipment",
        "Communications Equipment Manufacturing",
    ),
    ("networking & communication", "Computer Networking Products"),
    (
        "telecommunications equipment",
        "Communications Equipment Manufacturing",
    ),
    ("wireless", "Wireless Services"),
    ("long distance carriers", "Telecommunications Carriers"),
    ("telecom", "Telecommunications"),
    ("drones", "Aviation and Aerospace Component Manufacturing"),
    // media
    ("advertising", "Advertising Services"),
    ("marketing services", "Marketing Services"),
    ("b2b -> marketing", "Marketing Services"),
    ("b2b -> sales", "Software Development"),
    (
        "broadcasting",
        "Broadcast Media Production and Distribution",
    ),
    ("publishing", "Book and Periodical Publishing"),
    ("newspaper", "Newspaper Publishing"),
    ("mass media", "Broadcast Media Production and Distribution"),
    ("content", "Online Audio and Video Media"),
    ("entertainment", "Entertainment Providers"),
    ("film", "Movies, Videos and Sound"),
    ("music", "Musicians"),
    ("media", "Media Production"),
    ("resorts & casinos", "Gambling Facilities and Casinos"),
    ("gambling", "Gambling Facilities and Casinos"),
    ("casino", "Gambling Facilities and Casinos"),
    // consumer & retail
    ("apparel retail", "Retail Apparel and Fashion"),
    ("apparel and cosmetics", "Retail Apparel and Fashion"),
    ("apparel", "Apparel Manufacturing"),
    ("textile", "Textile Manufacturing"),
    ("footwear", "Footwear Manufacturing"),
    ("luxury", "Retail Luxury Goods and Jewelry"),
    ("grocery", "Retail Groceries"),
    ("food & staples retailing", "Retail Groceries"),
    ("supermarket", "Retail Groceries"),
    ("department stores", "Retail"),
    ("discount stores", "Retail"),
    ("multiline retail", "Retail"),
    (
        "home improvement retail",
        "Retail Building Materials and Garden Equipment",
    ),
    ("auto & truck dealerships", "Retail Motor Vehicles"),
    ("specialty retail", "Retail"),
    ("b2b -> retail", "Retail"),
    ("retail", "Retail"),
    ("restaurant", "Restaurants"),
    ("hotels, restaurants", "Hospitality"),
    ("lodging", "Hotels and Motels"),
    ("hotel", "Hotels and Motels"),
    ("hospitality", "Hospitality"),
    ("travel", "Travel Arrangements"),
    ("leisure", "Recreational Facilities"),
    ("recreational", "Sporting Goods Manufacturing"),
    ("beverages - brewers", "Breweries"),
    ("brewer", "Breweries"),
    ("wineries & distilleries", "Wineries"),
    ("beverage", "Beverage Manufacturing"),
    (
        "confectioner",
        "Sugar and Confectionery Product Manufacturing",
    ),
    ("food distribution", "Wholesale Food and Beverage"),
    ("food", "Food and Beverage Manufacturing"),
    ("tobacco", "Tobacco Manufacturing"),
    ("cigarettes", "Tobacco Manufacturing"),
    (
        "household & personal",
        "Personal Care Product Manufacturing",
    ),
    ("personal products", "Personal Care Product Manufacturing"),
    (
        "household products",
        "Soap and Cleaning Product Manufacturing",
    ),
    ("cosmetic", "Personal Care Product Manufacturing"),
    ("household durables", "Household Appliance Manufacturing"),
    (
        "furnishings, fixtures",
        "Furniture and Home Furnishings Manufacturing",
    ),
    ("furniture", "Furniture and Home Furnishings Manufacturing"),
    ("home and personal", "Consumer Services"),
    ("personal services", "Personal and Laundry Services"),
    ("diversified consumer services", "Consumer Services"),
    ("job and career", "Staffing and Recruiting"),
    ("consumer", "Consumer Services"),
    ("education", "Education"),
    ("e-learning", "E-Learning Providers"),
    ("edtech", "E-Learning Providers"),
    // industrials
    (
        "aerospace",
        "Aviation and Aerospace Component Manufacturing",
    ),
    (
        "aviation and space",
        "Aviation and Aerospace Component Manufacturing",
    ),
    ("defense", "Defense and Space Manufacturing"),
    ("defence", "Defense and Space Manufacturing"),
    ("airports", "Airlines and Aviation"),
    ("airline", "Airlines and Aviation"),
    ("aviation", "Airlines and Aviation"),
    ("air freight", "Freight and Package Transportation"),
    ("integrated freight", "Freight and Package Transportation"),
    ("courier", "Freight and Package Transportation"),
    (
        "logistics",
        "Transportation, Logistics, Supply Chain and Storage",
    ),
    (
        "supply chain",
        "Transportation, Logistics, Supply Chain and Storage",
    ),
    ("trucking", "Truck Transportation"),
    ("road & rail", "Truck Transportation"),
    ("railroads", "Rail Transportation"),
    ("rail transport", "Rail Transportation"),
    ("rail", "Rail Transportation"),
    ("marine shipping", "Maritime Transportation"),
    ("marine", "Maritime Transportation"),
    ("shipping", "Maritime Transportation"),
    ("shipbuilding", "Shipbuilding"),
    (
        "transportation infrastructure",
        "Transportation, Logistics, Supply Chain and Storage",
    ),
    (
        "infrastructure operations",
        "Transportation, Logistics, Supply Chain and Storage",
    ),
    ("transportation services", "Ground Passenger Transportation"),
    (
        "transport",
        "Transportation, Logistics, Supply Chain and Storage",
    ),
    ("postal", "Postal Services"),
    ("auto parts", "Motor Vehicle Parts Manufacturing"),
    ("auto components", "Motor Vehicle Parts Manufacturing"),
    ("auto manufacturers", "Motor Vehicle Manufacturing"),
    ("automobiles", "Motor Vehicle Manufacturing"),
    ("recreational vehicles", "Motor Vehicle Manufacturing"),
    ("automotive", "Motor Vehicle Manufacturing"),
    (
        "farm & construction machinery",
        "Agriculture, Construction, Mining Machinery Manufacturing",
    ),
    (
        "farm & heavy construction",
        "Agriculture, Construction, Mining Machinery Manufacturing",
    ),
    (
        "heavy equipment",
        "Agriculture, Construction, Mining Machinery Manufacturing",
    ),
    (
        "specialty industrial machinery",
        "Industrial Machinery Manufacturing",
    ),
    (
        "diversified machinery",
        "Industrial Machinery Manufacturing",
    ),
    ("machinery", "Machinery Manufacturing"),
    ("manufacturing and robotics", "Robot Manufacturing"),
    ("robotics", "Robot Manufacturing"),
    ("tools & accessories", "Cutlery and Handtool Manufacturing"),
    ("electrical equipment", "Electrical Equipment Manufacturing"),
    ("building products", "Wholesale Building Materials"),
    (
        "building materials",
        "Glass, Ceramics and Concrete Manufacturing",
    ),
    (
        "construction materials",
        "Glass, Ceramics and Concrete Manufacturing",
    ),
    (
        "residential construction",
        "Residential Building Construction",
    ),
    ("heavy construction", "Civil Engineering"),
    ("engineering & construction", "Construction"),
    ("construction & engineering", "Construction"),
    ("general contractors", "Construction"),
    ("construction", "Construction"),
    ("engineering", "Engineering Services"),
    ("industrial distribution", "Wholesale Machinery"),
    ("industrial equipment wholesale", "Wholesale Machinery"),
    ("trading companies", "Wholesale Import and Export"),
    ("distributors", "Wholesale"),
    ("wholesale", "Wholesale"),
    ("business equipment", "Retail Office Equipment"),
    ("commercial services", "Administrative and Support Services"),
    ("pollution & treatment", "Environmental Services"),
    ("waste", "Waste Collection"),
    ("environmental", "Environmental Services"),
    ("climate", "Services for Renewable Energy"),
    ("staffing", "Staffing and Recruiting"),
    ("human resources", "Human Resources Services"),
    ("recruiting and talent", "Staffing and Recruiting"),
    ("legal", "Legal Services"),
    ("law", "Law Practice"),
    ("consulting", "Business Consulting and Services"),
    ("research services", "Research Services"),
    ("professional services", "Professional Services"),
    (
        "specialty business services",
        "Business Consulting and Services",
    ),
    ("business services", "Business Consulting and Services"),
    ("office management", "Facilities Services"),
    ("operations", "Operations Consulting"),
    ("rental & leasing", "Equipment Rental Services"),
    ("leasing", "Equipment Rental Services"),
    ("packaging", "Packaging and Containers Manufacturing"),
    ("containers", "Packaging and Containers Manufacturing"),
    ("paper", "Paper and Forest Product Manufacturing"),
    ("lumber", "Wood Product Manufacturing"),
    ("forest", "Forestry and Logging"),
    ("metal fabrication", "Fabricated Metal Products"),
    ("steel", "Primary Metal Manufacturing"),
    ("aluminum", "Primary Metal Manufacturing"),
    ("specialty chemicals", "Chemical Manufacturing"),
    ("agricultural inputs", "Agricultural Chemical Manufacturing"),
    ("chemical", "Chemical Manufacturing"),
    ("plastic", "Plastics Manufacturing"),
    ("manufacturing", "Manufacturing"),
    ("industrials", "Industrial Machinery Manufacturing"),
    ("industrial", "Manufacturing"),
    // energy, mining, utilities
    ("oil & gas equipment", "Oil and Gas"),
    ("energy equipment", "Oil and Gas"),
    ("oil & gas drilling", "Oil Extraction"),
    ("oil & gas e&p", "Oil Extraction"),
    ("oil & gas refining", "Oil and Coal Product Manufacturing"),
    ("oil & gas midstream", "Pipeline Transportation"),
    ("independent oil", "Oil Extraction"),
    ("oil", "Oil and Gas"),
    ("natural gas", "Natural Gas Extraction"),
    ("coking coal", "Coal Mining"),
    ("thermal coal", "Coal Mining"),
    ("coal", "Coal Mining"),
    ("uranium", "Mining"),
    ("gold", "Metal Ore Mining"),
    ("silver", "Metal Ore Mining"),
    ("copper", "Metal Ore Mining"),
    ("precious metals", "Metal Ore Mining"),
    ("metals & mining", "Mining"),
    ("industrial metals", "Metal Ore Mining"),
    ("nonmetallic mineral", "Nonmetallic Mineral Mining"),
    ("mining", "Mining"),
    ("metals", "Primary Metal Manufacturing"),
    ("renewable", "Renewable Energy Power Generation"),
    ("independent power", "Electric Power Generation"),
    (
        "electric utilit",
        "Electric Power Transmission, Control, and Distribution",
    ),
    (
        "regulated electric",
        "Electric Power Transmission, Control, and Distribution",
    ),
    ("electricity", "Electric Power Generation"),
    ("gas utilit", "Natural Gas Distribution"),
    ("regulated gas", "Natural Gas Distribution"),
    ("water utilit", "Water Supply and Irrigation Systems"),
    ("regulated water", "Water Supply and Irrigation Systems"),
    ("utilit", "Utilities"),
    ("energy", "Oil, Gas, and Mining"),
    ("agricultur", "Farming"),
    ("farm products", "Farming"),
    ("farm", "Farming"),
    // real estate
    ("real estate services", "Real Estate Agents and Brokers"),
    ("real estate", "Real Estate"),
    ("housing", "Real Estate"),
    ("property", "Real Estate"),
    ("government", "Government Administration"),
    ("nonprofit", "Non-profit Organizations"),
    // generic words last (mostly Wikipedia free text and GICS groups)
    ("capital goods", "Industrial Machinery Manufacturing"),
    ("cement", "Glass, Ceramics and Concrete Manufacturing"),
    ("glass", "Glass Product Manufacturing"),
    ("rubber", "Rubber Products Manufacturing"),
    ("pulp", "Paper and Forest Product Manufacturing"),
    ("dairy", "Dairy Product Manufacturing"),
    ("seafood", "Seafood Product Manufacturing"),
    ("spirits", "Distilleries"),
    ("appliances", "Household Appliance Manufacturing"),
    ("heating", "HVAC and Refrigeration Equipment Manufacturing"),
    (
        "scientific instruments",
        "Measuring and Control Instrument Manufacturing",
    ),
    ("wind power", "Wind Electric Power Generation"),
    ("rental", "Equipment Rental Services"),
    ("mobile network", "Telecommunications Carriers"),
    ("transit", "Urban Transit Services"),
    ("tourism", "Travel Arrangements"),
    ("recruitment", "Staffing and Recruiting"),
    ("trading", "Wholesale Import and Export"),
    ("holding", "Holding Companies"),
    ("marketing", "Marketing Services"),
    ("infrastructure", "Civil Engineering"),
    ("technology", "Technology, Information and Internet"),
    ("materials", "Chemical Manufacturing"),
    ("b2b", "Software Development"),
];

/// Default V2 industry per FinanceDatabase/Yahoo sector or YC top-level industry, used when no rule
/// matched the finer text.
pub const SECTOR_DEFAULTS: &[(&str, &str)] = &[
    ("information technology", "IT Services and IT Consulting"),
    ("technology", "Technology, Information and Internet"),
    ("communication services", "Telecommunications"),
    ("health care", "Hospitals and Health Care"),
    ("healthcare", "Hospitals and Health Care"),
    ("financials", "Financial Services"),
    ("financial services", "Financial Services"),
    ("consumer discretionary", "Retail"),
    ("consumer cyclical", "Retail"),
    ("consumer staples", "Food and Beverage Manufacturing"),
    ("consumer defensive", "Food and Beverage Manufacturing"),
    ("industrials", "Industrial Machinery Manufacturing"),
    ("materials", "Chemical Manufacturing"),
    ("basic materials", "Chemical Manufacturing"),
    ("energy", "Oil and Gas"),
    ("utilities", "Utilities"),
    ("real estate", "Real Estate"),
    ("b2b", "Software Development"),
    ("consumer", "Consumer Services"),
    ("fintech", "Financial Services"),
    ("education", "E-Learning Providers"),
    ("government", "Government Administration"),
];

/// The V2 industry of a free text: the first rule whose pattern starts a word of `text`
/// (case-insensitive).
pub fn map_text(text: &str) -> Option<&'static str> {
    let t = format!(" {} ", text.to_lowercase());
    RULES
        .iter()
        .find(|(pat, _)| {
            // patterns must start a word: "bank" matches "banks", not "embankment"; "media"
            // does not match "remediation"
            t.match_indices(pat).any(|(i, _)| {
                !t[..i]
                    .chars()
                    .next_back()
                    .is_some_and(char::is_alphanumeric)
            })
        })
        .map(|(_, label)| *label)
}

/// The V2 industry of a sector name (exact, lowercase).
pub fn map_sector(sector: &str) -> Option<&'static str> {
    let s = sector.trim().to_lowercase();
    SECTOR_DEFAULTS
        .iter()
        .find(|(k, _)| *k == s)
        .map(|(_, v)| *v)
}

/// YC tags that name an industry (tag lowercase -> V2 label), used for a second industry.
pub const TAG_RULES: &[(&str, &str)] = &[
    ("saas", "Software Development"),
    ("b2b", "Software Development"),
    ("developer tools", "Software Development"),
    ("artificial intelligence", "Software Development"),
    ("ai", "Software Development"),
    ("machine learning", "Software Development"),
    ("generative ai", "Software Development"),
    ("fintech", "Financial Services"),
    ("payments", "Financial Services"),
    ("marketplace", "Internet Marketplace Platforms"),
    ("e-commerce", "Online and Mail Order Retail"),
    ("ecommerce", "Online and Mail Order Retail"),
    ("healthcare", "Hospitals and Health Care"),
    ("health tech", "Hospitals and Health Care"),
    ("biotech", "Biotechnology Research"),
    ("education", "E-Learning Providers"),
    ("edtech", "E-Learning Providers"),
    ("crypto / web3", "Blockchain Services"),
    ("hardware", "Computer Hardware Manufacturing"),
    ("robotics", "Robot Manufacturing"),
    ("security", "Computer and Network Security"),
    ("cybersecurity", "Computer and Network Security"),
    ("analytics", "Data Infrastructure and Analytics"),
    ("gaming", "Computer Games"),
    (
        "logistics",
        "Transportation, Logistics, Supply Chain and Storage",
    ),
    ("real estate", "Real Estate"),
    ("insurance", "Insurance"),
    ("climate", "Services for Renewable Energy"),
    ("consumer", "Consumer Services"),
    ("recruiting", "Staffing and Recruiting"),
    ("legal", "Legal Services"),
    ("marketing", "Marketing Services"),
    ("food tech", "Food and Beverage Services"),
    ("proptech", "Real Estate"),
    ("space exploration", "Defense and Space Manufacturing"),
    ("open source", "Software Development"),
];

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

#[cfg(test)]
mod tests {
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
}
