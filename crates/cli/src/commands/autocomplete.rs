//! `prospect autocomplete`: the five type-ahead lists (0.1 credit a call).

use crate::*;

pub(crate) async fn autocomplete(
    ctx: &Ctx,
    kind: prospect_api::client::AutocompleteKind,
    text: &str,
    spend: &SpendArgs,
    out: &OutArgs,
) -> CliResult {
    use prospect_core::request::{AutocompleteResponse as A, build_autocomplete};
    let endpoint = kind.endpoint();
    let req = build_autocomplete(
        endpoint,
        text,
        prospect_api::client::SearchSubject::Companies,
    )
    .map_err(invalid)?;
    ctx.confirm(
        &format!("autocomplete {}", endpoint.path()),
        prospect_api::cost::estimate_endpoint(endpoint),
        spend,
    )?;
    let answer = ctx.session().suggest(&req).await?.value;
    let pairs: Vec<Pair> = match answer {
        A::Companies(r) => r
            .companies
            .into_iter()
            .map(|c| Pair {
                key: c.domain,
                value: c.name.map(Value::from).unwrap_or(Value::Null),
            })
            .collect(),
        A::Keywords(r) => strings(r.keywords),
        A::JobTitles(r) => strings(r.job_titles),
        A::Skills(r) => strings(r.skills),
        A::Locations(r) => r
            .locations
            .into_iter()
            .map(|l| Pair {
                key: l.name,
                value: serde_json::json!({
                    "countryCode": l.country_code,
                    "type": l.kind,
                    "parentName": l.parent_name,
                }),
            })
            .collect(),
    };
    let mut w = Writer::<Pair>::new(Format::resolve(out.format, &out.out), out.out.as_ref())?;
    for p in &pairs {
        w.write(p)?;
    }
    w.finish()?;
    Ok(())
}
