//! Before spending: the estimate per credit pool (from the one price table, `api::cost`), what
//! the store already holds (answered at 0 credits), and the confirmation rule.
//!
//! The rule (`confirm_above`, config): a paid action asks first when its estimate in **any one
//! pool** is above the threshold. Pools are never added together: 3 standard credits and 3
//! email credits are different money.

use prospect_api::client::Endpoint;
use prospect_api::cost::{Cost, CreditPool, DEFAULT_PRICES, Quantities};

/// The three pools in display order; the one list front ends iterate.
pub const POOLS: [CreditPool; 3] = [CreditPool::Standard, CreditPool::Email, CreditPool::Phone];

/// What a paid action will cost before it is sent.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Estimate {
    /// The most the call(s) still to be sent can spend, per pool.
    pub cost: Cost,
    /// How many of the requested items the store already holds (answered at 0 credits).
    pub from_store: usize,
    /// How many items will be sent to the service.
    pub to_send: usize,
}

impl Estimate {
    /// The pools whose estimate is above `confirm_above` credits, in [`POOLS`] order; empty
    /// means the action may run without asking.
    pub fn pools_above(&self, confirm_above: f64) -> Vec<CreditPool> {
        pools_above(&self.cost, confirm_above)
    }
}

/// The most a lookup of `to_send` keys can spend at `endpoint` (`LookupCompanies`, SPEC.md
/// §4.5, or `LookupPeople`, §4.6), from the one price table: each key may match one record.
pub fn lookup_cost(endpoint: Endpoint, to_send: usize) -> Cost {
    DEFAULT_PRICES.charge_for(
        endpoint,
        &Quantities {
            results: to_send as u64,
            ..Quantities::default()
        },
    )
}

/// The pools of `cost` above `confirm_above` credits (per pool, never summed).
pub fn pools_above(cost: &Cost, confirm_above: f64) -> Vec<CreditPool> {
    let cost = cost.rounded();
    POOLS
        .into_iter()
        .filter(|p| cost.get(*p) > confirm_above)
        .collect()
}

/// `≤ 2 email credits`, `≤ 10 credits + 10 email`, `free`: an estimate in words, per pool.
pub fn describe_estimate(cost: &Cost) -> String {
    if cost.rounded().is_zero() {
        "free".to_string()
    } else {
        format!("≤ {cost}")
    }
}

/// A cost in words, per pool, with the pool's name: `2 email credits`, `1 credit`,
/// `0.2 credits + 1 phone credit`, `free`. Pools are never summed.
pub fn describe_pools(cost: &Cost) -> String {
    let c = cost.rounded();
    if c.is_zero() {
        return "free".to_string();
    }
    let word = |n: f64, pool: &str| {
        let num = if (n - n.round()).abs() < 1e-9 {
            format!("{}", n.round() as i64)
        } else {
            format!("{n}")
        };
        let s = if (n - 1.0).abs() < 1e-9 { "" } else { "s" };
        format!("{num} {pool}credit{s}")
    };
    let mut parts = Vec::new();
    if c.standard != 0.0 {
        parts.push(word(c.standard, ""));
    }
    if c.email != 0.0 {
        parts.push(word(c.email, "email "));
    }
    if c.phone != 0.0 {
        parts.push(word(c.phone, "phone "));
    }
    parts.join(" + ")
}

/// How a stored record was bought, in words, from the endpoint of its purchase: `seen in a
/// search` (a list search), `looked up`, `enriched`, `revealed` (a reveal's acknowledgement),
/// else `bought` (also when the purchase is unknown, e.g. a record kept before purchases
/// named their records).
pub fn provenance(endpoint: Option<&str>) -> &'static str {
    match endpoint.and_then(prospect_api::client::Endpoint::from_path) {
        Some(e) if e.is_search() => "seen in a search",
        Some(
            prospect_api::client::Endpoint::LookupCompanies
            | prospect_api::client::Endpoint::LookupPeople,
        ) => "looked up",
        Some(
            prospect_api::client::Endpoint::EnrichCompany
            | prospect_api::client::Endpoint::EnrichPerson,
        ) => "enriched",
        Some(
            prospect_api::client::Endpoint::RevealEmails
            | prospect_api::client::Endpoint::RevealPhones,
        ) => "revealed",
        _ => "bought",
    }
}

/// How old a stored answer is, in plain words: `just now`, `5 min old`, `3 h old`,
/// `2 days old`.
pub fn describe_age(age: chrono::Duration) -> String {
    let s = age.num_seconds().max(0);
    match s {
        0..=59 => "just now".to_string(),
        60..=3599 => format!("{} min old", s / 60),
        3600..=86_399 => format!("{} h old", s / 3600),
        _ => {
            let d = s / 86_400;
            format!("{d} day{} old", if d == 1 { "" } else { "s" })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use prospect_api::cost::reveal_cost;
    use prospect_common::ContactKind;

    /// Reveals charge their own pool only; lookups charge the standard pool per key
    /// (NOTES.md price table), and nothing to send costs nothing.
    #[test]
    fn reveal_and_lookup_estimates_come_from_the_price_table() {
        let e = reveal_cost(ContactKind::Email, 3);
        assert_eq!((e.standard, e.email, e.phone), (0.0, 3.0, 0.0));
        let p = reveal_cost(ContactKind::Phone, 2);
        assert_eq!((p.standard, p.email, p.phone), (0.0, 0.0, 2.0));
        assert!(reveal_cost(ContactKind::Email, 0).rounded().is_zero());
        let l = lookup_cost(Endpoint::LookupCompanies, 600);
        assert!(l.standard > 0.0 && l.email == 0.0 && l.phone == 0.0);
        assert_eq!(
            lookup_cost(Endpoint::LookupCompanies, 600).standard,
            2.0 * lookup_cost(Endpoint::LookupCompanies, 300).standard
        );
        assert!(lookup_cost(Endpoint::LookupPeople, 0).rounded().is_zero());
    }

    #[test]
    fn confirmation_is_per_pool() {
        let c = Cost {
            standard: 6.0,
            email: 6.0,
            phone: 0.0,
        };
        // 12 in total, but no pool is above 10.
        assert!(pools_above(&c, 10.0).is_empty());
        assert_eq!(
            pools_above(&c, 5.0),
            vec![CreditPool::Standard, CreditPool::Email]
        );
        // Float noise does not ask: 0.1 × 100 is 10, not 10.000000000000002.
        let mut noisy = Cost::ZERO;
        for _ in 0..100 {
            noisy.standard += 0.1;
        }
        assert!(pools_above(&noisy, 10.0).is_empty());
    }

    #[test]
    fn words() {
        assert_eq!(describe_estimate(&Cost::ZERO), "free");
        assert_eq!(
            describe_estimate(&Cost::in_pool(CreditPool::Email, 2.0)),
            "≤ 2 email"
        );
        assert_eq!(
            describe_pools(&Cost::in_pool(CreditPool::Email, 2.0)),
            "2 email credits"
        );
        assert_eq!(
            describe_pools(&Cost {
                standard: 1.0,
                email: 0.0,
                phone: 1.0
            }),
            "1 credit + 1 phone credit"
        );
        assert_eq!(
            describe_pools(&Cost::in_pool(CreditPool::Standard, 0.2)),
            "0.2 credits"
        );
        assert_eq!(describe_pools(&Cost::ZERO), "free");
        assert_eq!(describe_age(chrono::Duration::seconds(5)), "just now");
        assert_eq!(describe_age(chrono::Duration::minutes(5)), "5 min old");
        assert_eq!(describe_age(chrono::Duration::days(1)), "1 day old");
        assert_eq!(describe_age(chrono::Duration::days(3)), "3 days old");
    }
}
