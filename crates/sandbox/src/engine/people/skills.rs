//! The skills of synthetic people: those every department draws from, and the stems that
//! put a skill into a department's bucket (used by [`super::People::generate`]).

/// Common professional skills every department draws from (added to the skills vocabulary
/// when missing).
pub const GENERAL_SKILLS: [&str; 16] = [
    "Leadership",
    "Project Management",
    "Communication",
    "Teamwork",
    "Microsoft Excel",
    "Problem Solving",
    "Strategic Planning",
    "Negotiation",
    "Public Speaking",
    "Time Management",
    "Team Management",
    "Business Strategy",
    "Customer Service",
    "Data Analysis",
    "Stakeholder Management",
    "Budgeting",
];

/// Skill words that put a skill into a department's bucket.
pub(super) const SKILL_STEMS: &[(&str, &[&str])] = &[
    (
        "Engineering",
        &[
            "software",
            "program",
            "python",
            "java",
            "linux",
            "sql",
            "cloud",
            "develop",
            "web",
            "database",
            "code",
            "engineer",
            "c++",
            "git",
            "api",
            "kubernetes",
            "docker",
        ],
    ),
    (
        "Accounting and Finance",
        &[
            "account", "financ", "tax", "budget", "audit", "ledger", "invoice", "payroll",
        ],
    ),
    (
        "Sales",
        &[
            "sales",
            "sell",
            "negotiat",
            "crm",
            "customer",
            "salesforce",
            "lead",
        ],
    ),
    (
        "Marketing and Advertising",
        &[
            "marketing",
            "advertis",
            "brand",
            "seo",
            "social media",
            "campaign",
            "content",
        ],
    ),
    (
        "HR",
        &[
            "recruit",
            "human resource",
            "hiring",
            "talent",
            "employee",
            "onboard",
        ],
    ),
    (
        "Design",
        &[
            "design",
            "photoshop",
            "illustrat",
            "graphic",
            "adobe",
            "figma",
            "sketch",
        ],
    ),
    (
        "Legal",
        &["legal", "law", "contract", "complian", "regulat", "litigat"],
    ),
    (
        "Operations",
        &[
            "logistic",
            "operation",
            "supply",
            "project management",
            "inventory",
            "schedul",
        ],
    ),
    (
        "Product",
        &[
            "product management",
            "roadmap",
            "user research",
            "agile",
            "scrum",
            "product design",
        ],
    ),
    (
        "Customer Relations",
        &[
            "customer relation",
            "customer support",
            "client relation",
            "account management",
        ],
    ),
    (
        "Management",
        &[
            "management",
            "strategic",
            "leadership",
            "business plan",
            "corporate governance",
        ],
    ),
    (
        "R&D",
        &[
            "research",
            "laborator",
            "experiment",
            "scientific",
            "statistic",
            "machine learning",
        ],
    ),
    (
        "Healthcare",
        &[
            "patient",
            "clinical",
            "medical",
            "nursing",
            "health care",
            "healthcare",
        ],
    ),
    (
        "Manufacturing",
        &[
            "manufactur",
            "machin",
            "assembly",
            "production line",
            "welding",
            "cnc",
        ],
    ),
    (
        "Procurement",
        &["procure", "purchas", "sourcing", "vendor", "tender"],
    ),
    (
        "Supply Chain",
        &[
            "supply chain",
            "warehouse",
            "shipping",
            "freight",
            "distribution",
        ],
    ),
    (
        "Quality Control",
        &["quality", "inspect", "iso 9001", "testing"],
    ),
    (
        "Security",
        &[
            "security",
            "cyber",
            "firewall",
            "encryption",
            "surveillance",
        ],
    ),
    (
        "PR and Communications",
        &[
            "public relation",
            "press",
            "media relation",
            "communication",
        ],
    ),
    (
        "Editorial Personnel",
        &["editing", "editorial", "copywrit", "journalis", "proofread"],
    ),
    (
        "Business Support",
        &[
            "administrat",
            "office",
            "clerical",
            "data entry",
            "scheduling",
        ],
    ),
];
