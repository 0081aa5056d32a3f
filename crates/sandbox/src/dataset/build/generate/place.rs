//! Where a company is: a street address in its country's style and a point inside its country
//! (or US state), each seeded from its domain like the rest of [`super`].

use super::*;

/// A plausible street address in the country's style.
pub fn street_address(domain: &str, country: &str) -> String {
    let mut r = Rng::from_key(domain, "street");
    let n = r.range(1, 250);
    match country {
        "de" | "at" | "ch" | "nl" | "dk" | "se" | "no" | "fi" => {
            let s = r.pick(&[
                "Hauptstraße",
                "Bahnhofstraße",
                "Industriestraße",
                "Marktplatz",
                "Kirchweg",
                "Parkallee",
                "Hafenstraße",
                "Lindenweg",
            ]);
            format!("{s} {n}")
        }
        "fr" | "be" | "lu" | "mc" => {
            let s = r.pick(&[
                "rue de la République",
                "avenue des Champs",
                "boulevard Voltaire",
                "rue du Commerce",
                "rue de la Gare",
                "avenue de l'Europe",
            ]);
            format!("{n} {s}")
        }
        "es" | "mx" | "ar" | "cl" | "co" | "pe" => {
            let s = r.pick(&[
                "Calle Mayor",
                "Avenida de la Constitución",
                "Calle Real",
                "Paseo de la Reforma",
                "Avenida Libertador",
            ]);
            format!("{s} {n}")
        }
        "it" => {
            let s = r.pick(&[
                "Via Roma",
                "Via Garibaldi",
                "Corso Italia",
                "Via Dante",
                "Viale Europa",
            ]);
            format!("{s} {n}")
        }
        "br" | "pt" => {
            let s = r.pick(&[
                "Rua das Flores",
                "Avenida Paulista",
                "Rua Augusta",
                "Avenida da Liberdade",
            ]);
            format!("{s}, {n}")
        }
        "jp" => format!(
            "{}-{}-{} Chuo",
            r.range(1, 9),
            r.range(1, 30),
            r.range(1, 20)
        ),
        _ => {
            let s = r.pick(&[
                "Main Street",
                "Market Street",
                "Park Avenue",
                "High Street",
                "Broadway",
                "Oak Street",
                "Industrial Way",
                "Commerce Drive",
                "Technology Drive",
                "King Street",
            ]);
            format!("{n} {s}")
        }
    }
}

/// Approximate coordinates near the region's or country's centroid (±0.4°), or `None` when the
/// country is not in the table.
pub fn lat_lon(domain: &str, country: &str, region_code: Option<&str>) -> Option<(f64, f64)> {
    let mut r = Rng::from_key(domain, "latlon");
    let base = region_code
        .and_then(|c| {
            US_STATES
                .iter()
                .find(|(k, _, _)| *k == c)
                .map(|(_, a, b)| (*a, *b))
        })
        .or_else(|| {
            COUNTRIES
                .iter()
                .find(|(k, _, _)| *k == country)
                .map(|(_, a, b)| (*a, *b))
        })?;
    let round = |x: f64| (x * 10_000.0).round() / 10_000.0;
    Some((
        round(base.0 + r.range_f(-0.4, 0.4)),
        round(base.1 + r.range_f(-0.4, 0.4)),
    ))
}

/// Approximate centroids of the main business city or middle of each country.
const COUNTRIES: &[(&str, f64, f64)] = &[
    ("us", 39.8, -98.6),
    ("ca", 45.4, -75.7),
    ("gb", 51.5, -0.1),
    ("ie", 53.3, -6.3),
    ("de", 50.1, 8.7),
    ("fr", 48.9, 2.35),
    ("nl", 52.37, 4.9),
    ("be", 50.85, 4.35),
    ("lu", 49.6, 6.13),
    ("ch", 47.37, 8.54),
    ("at", 48.2, 16.37),
    ("it", 45.46, 9.19),
    ("es", 40.42, -3.7),
    ("pt", 38.72, -9.14),
    ("se", 59.33, 18.07),
    ("no", 59.91, 10.75),
    ("dk", 55.68, 12.57),
    ("fi", 60.17, 24.94),
    ("is", 64.15, -21.94),
    ("pl", 52.23, 21.01),
    ("cz", 50.08, 14.44),
    ("hu", 47.5, 19.04),
    ("gr", 37.98, 23.73),
    ("tr", 41.01, 28.98),
    ("il", 32.08, 34.78),
    ("ru", 55.76, 37.62),
    ("ua", 50.45, 30.52),
    ("ro", 44.43, 26.1),
    ("bg", 42.7, 23.32),
    ("ee", 59.44, 24.75),
    ("lv", 56.95, 24.11),
    ("lt", 54.69, 25.28),
    ("cy", 35.17, 33.36),
    ("mt", 35.9, 14.51),
    ("mc", 43.74, 7.42),
    ("je", 49.19, -2.11),
    ("gg", 49.45, -2.54),
    ("im", 54.15, -4.48),
    ("gi", 36.14, -5.35),
    ("bm", 32.3, -64.78),
    ("ky", 19.29, -81.37),
    ("vg", 18.43, -64.62),
    ("jp", 35.68, 139.69),
    ("cn", 31.23, 121.47),
    ("hk", 22.32, 114.17),
    ("tw", 25.03, 121.56),
    ("kr", 37.57, 126.98),
    ("sg", 1.35, 103.82),
    ("mo", 22.2, 113.54),
    ("in", 19.08, 72.88),
    ("id", -6.2, 106.85),
    ("th", 13.76, 100.5),
    ("my", 3.139, 101.69),
    ("ph", 14.6, 120.98),
    ("vn", 10.82, 106.63),
    ("pk", 24.86, 67.01),
    ("bd", 23.81, 90.41),
    ("lk", 6.93, 79.86),
    ("au", -33.87, 151.21),
    ("nz", -36.85, 174.76),
    ("br", -23.55, -46.63),
    ("mx", 19.43, -99.13),
    ("ar", -34.6, -58.38),
    ("cl", -33.45, -70.67),
    ("co", 4.71, -74.07),
    ("pe", -12.05, -77.04),
    ("uy", -34.9, -56.16),
    ("za", -26.2, 28.05),
    ("eg", 30.04, 31.24),
    ("ng", 6.52, 3.38),
    ("ke", -1.29, 36.82),
    ("ma", 33.57, -7.59),
    ("sa", 24.71, 46.68),
    ("ae", 25.2, 55.27),
    ("qa", 25.29, 51.53),
    ("kw", 29.38, 47.99),
    ("kz", 43.24, 76.89),
    ("mn", 47.89, 106.91),
    ("mu", -20.16, 57.5),
    ("pa", 8.98, -79.52),
    ("pg", -9.44, 147.18),
    ("jo", 31.95, 35.93),
    ("ge", 41.72, 44.79),
    ("az", 40.41, 49.87),
    ("si", 46.06, 14.51),
    ("sk", 48.15, 17.11),
    ("hr", 45.81, 15.98),
    ("rs", 44.79, 20.45),
    ("by", 53.9, 27.56),
    ("ir", 35.69, 51.39),
    ("ee", 59.44, 24.75),
    ("cr", 9.93, -84.08),
    ("ec", -0.18, -78.47),
    ("ve", 10.48, -66.9),
    ("gh", 5.6, -0.19),
    ("et", 9.03, 38.74),
    ("tz", -6.79, 39.21),
    ("ug", 0.35, 32.58),
    ("li", 47.14, 9.52),
    ("bs", 25.05, -77.35),
    ("bb", 13.1, -59.62),
    ("pr", 18.47, -66.11),
    ("cw", 12.12, -68.93),
    ("kh", 11.56, 104.92),
    ("mm", 16.87, 96.2),
    ("np", 27.72, 85.32),
    ("dz", 36.75, 3.06),
    ("tn", 36.81, 10.18),
    ("ci", 5.36, -4.01),
    ("sn", 14.72, -17.47),
];

/// Approximate centroids of the US states' main business areas.
const US_STATES: &[(&str, f64, f64)] = &[
    ("US-AL", 33.5, -86.8),
    ("US-AK", 61.2, -149.9),
    ("US-AZ", 33.45, -112.07),
    ("US-AR", 34.75, -92.29),
    ("US-CA", 37.4, -122.1),
    ("US-CO", 39.74, -104.99),
    ("US-CT", 41.3, -72.9),
    ("US-DE", 39.74, -75.55),
    ("US-DC", 38.9, -77.04),
    ("US-FL", 27.9, -82.5),
    ("US-GA", 33.75, -84.39),
    ("US-HI", 21.31, -157.86),
    ("US-ID", 43.62, -116.2),
    ("US-IL", 41.88, -87.63),
    ("US-IN", 39.77, -86.16),
    ("US-IA", 41.59, -93.62),
    ("US-KS", 37.69, -97.34),
    ("US-KY", 38.25, -85.76),
    ("US-LA", 29.95, -90.07),
    ("US-ME", 43.66, -70.26),
    ("US-MD", 39.29, -76.61),
    ("US-MA", 42.36, -71.06),
    ("US-MI", 42.33, -83.05),
    ("US-MN", 44.98, -93.27),
    ("US-MS", 32.3, -90.18),
    ("US-MO", 38.63, -90.2),
    ("US-MT", 45.78, -108.5),
    ("US-NE", 41.26, -95.93),
    ("US-NV", 36.17, -115.14),
    ("US-NH", 42.99, -71.46),
    ("US-NJ", 40.73, -74.17),
    ("US-NM", 35.08, -106.65),
    ("US-NY", 40.75, -73.98),
    ("US-NC", 35.23, -80.84),
    ("US-ND", 46.88, -96.79),
    ("US-OH", 39.96, -82.99),
    ("US-OK", 35.47, -97.52),
    ("US-OR", 45.52, -122.68),
    ("US-PA", 39.95, -75.17),
    ("US-RI", 41.82, -71.41),
    ("US-SC", 34.0, -81.03),
    ("US-SD", 43.55, -96.73),
    ("US-TN", 36.16, -86.78),
    ("US-TX", 30.27, -97.74),
    ("US-UT", 40.76, -111.89),
    ("US-VT", 44.48, -73.21),
    ("US-VA", 38.9, -77.2),
    ("US-WA", 47.61, -122.33),
    ("US-WV", 38.35, -81.63),
    ("US-WI", 43.04, -87.91),
    ("US-WY", 41.14, -104.82),
];
