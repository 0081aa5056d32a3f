//! Countries, regions and cities (iso-codes, CLDR, and the tables below) with name lookups.

use std::collections::HashMap;
use std::path::Path;

use anyhow::Context;

use super::read_json;

/// Countries and regions with name lookups.
#[derive(Debug, Default)]
pub struct Geo {
    /// (lowercase alpha-2, English name), sorted by code.
    pub countries: Vec<(String, String)>,
    /// lowercase name or alias -> lowercase alpha-2.
    pub by_name: HashMap<String, String>,
    /// (lowercase country, code, English, local).
    pub regions: Vec<(String, String, String, String)>,
    /// ISO 3166-2 code (uppercase) -> English name.
    pub region_name: HashMap<String, String>,
    /// (lowercase country, folded region/city name or code suffix) -> code.
    pub region_lookup: HashMap<(String, String), String>,
    /// City-table codes unknown to iso-codes (reported by the build, then ignored).
    pub unknown_codes: Vec<String>,
}

/// Lowercase and fold common Latin diacritics to ASCII (`Düsseldorf` -> `dusseldorf`), so that
/// source spellings with and without accents meet.
pub fn fold(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.trim().to_lowercase().chars() {
        match c {
            'á' | 'à' | 'â' | 'ä' | 'ã' | 'å' | 'ā' => out.push('a'),
            'é' | 'è' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' => out.push('e'),
            'í' | 'ì' | 'î' | 'ï' | 'ī' => out.push('i'),
            'ó' | 'ò' | 'ô' | 'ö' | 'õ' | 'ø' | 'ō' | 'ő' => out.push('o'),
            'ú' | 'ù' | 'û' | 'ü' | 'ū' | 'ű' => out.push('u'),
            'ç' | 'č' | 'ć' => out.push('c'),
            'ñ' | 'ń' => out.push('n'),
            'ś' | 'š' | 'ş' => out.push('s'),
            'ž' | 'ż' | 'ź' => out.push('z'),
            'ł' => out.push('l'),
            'ý' | 'ÿ' => out.push('y'),
            'ř' => out.push('r'),
            'ß' => out.push_str("ss"),
            'æ' => out.push_str("ae"),
            'œ' => out.push_str("oe"),
            _ => out.push(c),
        }
    }
    out
}

const COUNTRY_ALIASES: &[(&str, &str)] = &[
    ("usa", "us"),
    ("us", "us"),
    ("united states of america", "us"),
    ("america", "us"),
    ("uk", "gb"),
    ("england", "gb"),
    ("scotland", "gb"),
    ("wales", "gb"),
    ("northern ireland", "gb"),
    ("great britain", "gb"),
    ("south korea", "kr"),
    ("korea", "kr"),
    ("republic of korea", "kr"),
    ("north korea", "kp"),
    ("russia", "ru"),
    ("taiwan", "tw"),
    ("vietnam", "vn"),
    ("czech republic", "cz"),
    ("czechia", "cz"),
    ("macedonia", "mk"),
    ("ivory coast", "ci"),
    ("republic of the congo", "cg"),
    ("democratic republic of the congo", "cd"),
    ("netherlands antilles", "cw"),
    ("macau", "mo"),
    ("macao", "mo"),
    ("hong kong", "hk"),
    ("british virgin islands", "vg"),
    ("bolivia", "bo"),
    ("iran", "ir"),
    ("tanzania", "tz"),
    ("venezuela", "ve"),
    ("syria", "sy"),
    ("laos", "la"),
    ("moldova", "md"),
    ("republic of ireland", "ie"),
    ("kingdom of the netherlands", "nl"),
    ("the netherlands", "nl"),
    ("holland", "nl"),
    ("turkey", "tr"),
    ("türkiye", "tr"),
    ("uae", "ae"),
    ("palestine", "ps"),
    ("brunei", "bn"),
    ("cape verde", "cv"),
    ("swaziland", "sz"),
    ("burma", "mm"),
    ("vatican", "va"),
    ("micronesia", "fm"),
    ("saint kitts and nevis", "kn"),
    ("curacao", "cw"),
    ("kosovo", "xk"),
];

impl Geo {
    /// Loads iso-codes 3166-1 and the CLDR-derived regions file.
    pub fn load(data: &Path) -> anyhow::Result<Geo> {
        let mut g = Geo::default();
        let iso = read_json(&data.join("iso-codes-debian/iso_3166-1.json"))?;
        for c in iso["3166-1"].as_array().context("iso_3166-1: no list")? {
            let code = c["alpha_2"].as_str().unwrap_or_default().to_lowercase();
            let name = c["common_name"]
                .as_str()
                .or(c["name"].as_str())
                .unwrap_or_default()
                .to_string();
            for k in ["name", "official_name", "common_name"] {
                if let Some(n) = c[k].as_str() {
                    g.by_name.insert(n.to_lowercase(), code.clone());
                }
            }
            g.by_name.insert(code.clone(), code.clone());
            g.countries.push((code, name));
        }
        g.countries.sort();
        for (a, c) in COUNTRY_ALIASES {
            g.by_name.insert(a.to_string(), c.to_string());
        }
        let regions = read_json(&data.join("cldr-41-subdivisions/regions_derived.json"))?;
        for r in regions["regions"]
            .as_array()
            .context("regions_derived: no list")?
        {
            let country = r["country_code"]
                .as_str()
                .unwrap_or_default()
                .to_lowercase();
            let code = r["code"].as_str().unwrap_or_default().to_string();
            let en = r["name_en"].as_str().unwrap_or_default().to_string();
            let local = r["name_local"].as_str().unwrap_or(&en).to_string();
            let iso_name = r["iso_name"].as_str().unwrap_or_default().to_string();
            let suffix = code.split('-').nth(1).unwrap_or_default().to_lowercase();
            for key in [
                suffix,
                en.to_lowercase(),
                local.to_lowercase(),
                iso_name.to_lowercase(),
            ] {
                g.region_lookup
                    .entry((country.clone(), key))
                    .or_insert_with(|| code.clone());
            }
            g.region_name.insert(code.clone(), en.clone());
            g.regions.push((country, code, en, local));
        }
        let table = CITY_TABLE.lines().filter_map(|l| {
            let mut p = l.split('|');
            Some((p.next()?, p.next()?, p.next()?))
        });
        let extra = REGION_EXTRA.iter().copied().chain(table);
        for (country, keys, code) in extra {
            if !g.region_name.contains_key(code) {
                g.unknown_codes.push(code.to_string());
                continue;
            }
            for key in keys.split(',') {
                g.region_lookup
                    .insert((country.to_string(), fold(key)), code.to_string());
            }
        }
        Ok(g)
    }

    /// Lowercase alpha-2 of an English country name, ISO code or alias.
    pub fn country(&self, name: &str) -> Option<String> {
        let n = name.trim().trim_end_matches('.').to_lowercase();
        if n.is_empty() {
            return None;
        }
        self.by_name.get(&n).cloned()
    }

    /// ISO 3166-2 code of a state/region name or code, or of a city (big cities and cities named
    /// like their region), within `country`.
    pub fn region(&self, country: &str, state: Option<&str>, city: Option<&str>) -> Option<String> {
        for s in [state, city].into_iter().flatten() {
            let k = fold(s);
            if k.is_empty() {
                continue;
            }
            if let Some(c) = self.region_lookup.get(&(country.to_string(), k.clone())) {
                return Some(c.clone());
            }
            // ignore a trailing " city" / " prefecture" / "-si"...
            for suf in [
                " city",
                " prefecture",
                " province",
                " state",
                "-shi",
                "-si",
                "-to",
                "-gu",
                "-eup",
            ] {
                if let Some(b) = k.strip_suffix(suf)
                    && let Some(c) = self
                        .region_lookup
                        .get(&(country.to_string(), b.to_string()))
                {
                    return Some(c.clone());
                }
            }
        }
        None
    }
}

/// Extra (country, lowercase key, ISO 3166-2 code) pairs: big cities and old codes. Entries
/// whose code is not in iso-codes are ignored.
const REGION_EXTRA: &[(&str, &str, &str)] = &[
    ("gb", "london", "GB-LND"),
    ("gb", "manchester", "GB-MAN"),
    ("gb", "birmingham", "GB-BIR"),
    ("gb", "edinburgh", "GB-EDH"),
    ("gb", "glasgow", "GB-GLG"),
    ("gb", "cambridge", "GB-CAM"),
    ("gb", "oxford", "GB-OXF"),
    ("gb", "leeds", "GB-LDS"),
    ("gb", "bristol", "GB-BST"),
    ("mx", "df", "MX-CMX"),
    ("mx", "mexico city", "MX-CMX"),
    ("mx", "ciudad de méxico", "MX-CMX"),
    ("mx", "monterrey", "MX-NLE"),
    ("mx", "guadalajara", "MX-JAL"),
    ("in", "mumbai", "IN-MH"),
    ("in", "pune", "IN-MH"),
    ("in", "bangalore", "IN-KA"),
    ("in", "bengaluru", "IN-KA"),
    ("in", "new delhi", "IN-DL"),
    ("in", "delhi", "IN-DL"),
    ("in", "gurgaon", "IN-HR"),
    ("in", "gurugram", "IN-HR"),
    ("in", "noida", "IN-UP"),
    ("in", "chennai", "IN-TN"),
    ("in", "hyderabad", "IN-TG"),
    ("in", "kolkata", "IN-WB"),
    ("in", "ahmedabad", "IN-GJ"),
    ("cn", "shanghai", "CN-SH"),
    ("cn", "beijing", "CN-BJ"),
    ("cn", "shenzhen", "CN-GD"),
    ("cn", "guangzhou", "CN-GD"),
    ("cn", "hangzhou", "CN-ZJ"),
    ("cn", "nanjing", "CN-JS"),
    ("cn", "suzhou", "CN-JS"),
    ("cn", "chengdu", "CN-SC"),
    ("cn", "wuhan", "CN-HB"),
    ("cn", "tianjin", "CN-TJ"),
    ("cn", "chongqing", "CN-CQ"),
    ("ca", "toronto", "CA-ON"),
    ("ca", "vancouver", "CA-BC"),
    ("ca", "calgary", "CA-AB"),
    ("ca", "montreal", "CA-QC"),
    ("ca", "ottawa", "CA-ON"),
    ("au", "sydney", "AU-NSW"),
    ("au", "melbourne", "AU-VIC"),
    ("au", "perth", "AU-WA"),
    ("au", "brisbane", "AU-QLD"),
    ("au", "adelaide", "AU-SA"),
    ("jp", "osaka", "JP-27"),
    ("jp", "tokyo", "JP-13"),
    ("jp", "yokohama", "JP-14"),
    ("jp", "nagoya", "JP-23"),
    ("jp", "kyoto", "JP-26"),
    ("jp", "fukuoka", "JP-40"),
    ("kr", "seoul", "KR-11"),
    ("kr", "busan", "KR-26"),
    ("kr", "incheon", "KR-28"),
    ("kr", "seongnam", "KR-41"),
    ("de", "munich", "DE-BY"),
    ("de", "münchen", "DE-BY"),
    ("de", "frankfurt", "DE-HE"),
    ("de", "frankfurt am main", "DE-HE"),
    ("de", "cologne", "DE-NW"),
    ("de", "köln", "DE-NW"),
    ("de", "düsseldorf", "DE-NW"),
    ("de", "stuttgart", "DE-BW"),
    ("de", "hanover", "DE-NI"),
    ("de", "hannover", "DE-NI"),
    ("se", "stockholm", "SE-AB"),
    ("se", "gothenburg", "SE-O"),
    ("se", "göteborg", "SE-O"),
    ("se", "malmö", "SE-M"),
    ("no", "oslo", "NO-03"),
    ("no", "bergen", "NO-46"),
    ("dk", "copenhagen", "DK-84"),
    ("fi", "helsinki", "FI-18"),
    ("fi", "espoo", "FI-18"),
    ("ch", "zurich", "CH-ZH"),
    ("ch", "geneva", "CH-GE"),
    ("ch", "basel", "CH-BS"),
    ("ch", "zug", "CH-ZG"),
    ("at", "vienna", "AT-9"),
    ("fr", "paris", "FR-IDF"),
    ("fr", "lyon", "FR-ARA"),
    ("fr", "marseille", "FR-PAC"),
    ("es", "madrid", "ES-MD"),
    ("es", "barcelona", "ES-CT"),
    ("it", "milan", "IT-25"),
    ("it", "rome", "IT-62"),
    ("it", "turin", "IT-21"),
    ("nl", "amsterdam", "NL-NH"),
    ("nl", "rotterdam", "NL-ZH"),
    ("nl", "the hague", "NL-ZH"),
    ("nl", "utrecht", "NL-UT"),
    ("nl", "eindhoven", "NL-NB"),
    ("br", "são paulo", "BR-SP"),
    ("br", "sao paulo", "BR-SP"),
    ("br", "rio de janeiro", "BR-RJ"),
    ("il", "tel aviv", "IL-TA"),
    ("il", "jerusalem", "IL-JM"),
    ("il", "haifa", "IL-HA"),
    ("ie", "dublin", "IE-D"),
    ("tw", "taipei", "TW-TPE"),
    ("tw", "hsinchu", "TW-HSZ"),
    ("tr", "istanbul", "TR-34"),
    ("th", "bangkok", "TH-10"),
    ("id", "jakarta", "ID-JK"),
    ("my", "kuala lumpur", "MY-14"),
    ("ar", "buenos aires", "AR-C"),
    ("cl", "santiago", "CL-RM"),
    ("ru", "moscow", "RU-MOW"),
    ("ru", "saint petersburg", "RU-SPE"),
    ("za", "johannesburg", "ZA-GP"),
    ("za", "cape town", "ZA-WC"),
    ("ae", "dubai", "AE-DU"),
    ("ae", "abu dhabi", "AE-AZ"),
    ("ng", "lagos", "NG-LA"),
    ("ke", "nairobi", "KE-30"),
    ("eg", "cairo", "EG-C"),
    ("pl", "warsaw", "PL-14"),
    ("be", "brussels", "BE-BRU"),
    ("pt", "lisbon", "PT-11"),
    ("gr", "athens", "GR-I"),
    ("nz", "auckland", "NZ-AUK"),
    ("nz", "wellington", "NZ-WGN"),
    ("co", "bogota", "CO-DC"),
    ("co", "bogotá", "CO-DC"),
    ("pe", "lima", "PE-LIM"),
    ("sa", "riyadh", "SA-01"),
    ("ph", "manila", "PH-00"),
    ("vn", "ho chi minh city", "VN-SG"),
    ("vn", "hanoi", "VN-HN"),
    ("pk", "karachi", "PK-SD"),
    ("pk", "lahore", "PK-PB"),
];

/// More (country, lowercase ASCII-folded city, ISO 3166-2 code) entries, one line per code:
/// `cc|city,city,...|CODE`.
const CITY_TABLE: &str = "\
kr|seongnam,hwaseong,ansan,anyang,yongin,suwon,siheung,pyeongtaek,bucheon,goyang,gimpo,icheon,paju,gunpo,uiwang,osan,gwangmyeong,hanam,namyangju,gwacheon|KR-41\n\
kr|daegu|KR-27\n\
kr|daejeon|KR-30\n\
kr|gwangju|KR-29\n\
kr|ulsan|KR-31\n\
kr|pohang,gumi,gyeongju|KR-47\n\
kr|cheongju,jincheon,chungju|KR-43\n\
kr|cheonan,asan,dangjin|KR-44\n\
kr|changwon,yangsan,gimhae,geoje,jinju|KR-48\n\
kr|jeonju,iksan,gunsan|KR-45\n\
kr|sejong|KR-50\n\
cn|ningbo,shaoxing,jiaxing,huzhou,wenzhou,jinhua,hangzhou,taizhou,yiwu|CN-ZJ\n\
cn|xiamen,fuzhou,quanzhou,zhangzhou|CN-FJ\n\
cn|changsha,zhuzhou,xiangtan,changde|CN-HN\n\
cn|hefei,wuhu,bengbu,ma'anshan|CN-AH\n\
cn|qingdao,jinan,yantai,weifang,zibo,weihai,jining,linyi,dongying|CN-SD\n\
cn|changzhou,wuxi,nantong,yangzhou,xuzhou,zhenjiang,kunshan,jiangyin,zhangjiagang,suqian,yancheng,huai'an,lianyungang|CN-JS\n\
cn|foshan,dongguan,zhuhai,shantou,zhongshan,huizhou,jiangmen,zhaoqing,shenzhen,guangzhou,shaoguan,zhanjiang|CN-GD\n\
cn|xi'an,xian,baoji,xianyang|CN-SN\n\
cn|urumqi,karamay|CN-XJ\n\
cn|zhengzhou,luoyang,xinxiang,pingdingshan,anyang,jiaozuo,xuchang|CN-HA\n\
cn|shenyang,dalian,anshan,fushun,yingkou|CN-LN\n\
cn|kunming|CN-YN\n\
cn|nanchang,ganzhou,jiujiang,jingdezhen|CN-JX\n\
cn|taiyuan,datong,changzhi|CN-SX\n\
cn|harbin,daqing,qiqihar|CN-HL\n\
cn|changchun,jilin|CN-JL\n\
cn|nanning,liuzhou,guilin|CN-GX\n\
cn|guiyang,zunyi|CN-GZ\n\
cn|lanzhou|CN-GS\n\
cn|haikou,sanya|CN-HI\n\
cn|hohhot,baotou,ordos|CN-NM\n\
cn|tangshan,shijiazhuang,baoding,handan,langfang,qinhuangdao|CN-HE\n\
cn|yichang,xiangyang,wuhan,huangshi|CN-HB\n\
cn|mianyang,deyang,yibin,leshan,chengdu,luzhou|CN-SC\n\
cn|yinchuan|CN-NX\n\
cn|xining|CN-QH\n\
cn|lhasa|CN-XZ\n\
jp|kobe,himeji,amagasaki,nishinomiya|JP-28\n\
jp|sapporo|JP-01\n\
jp|hiroshima,fukuyama|JP-34\n\
jp|kawasaki,yokohama,sagamihara,fujisawa|JP-14\n\
jp|kitakyushu|JP-40\n\
jp|sakai,higashiosaka,suita,toyonaka|JP-27\n\
jp|hamamatsu,shizuoka,numazu,fuji|JP-22\n\
jp|niigata,nagaoka|JP-15\n\
jp|chiba,funabashi,urayasu,kashiwa,ichikawa,narita|JP-12\n\
jp|saitama,kawaguchi,kawagoe,tokorozawa|JP-11\n\
jp|nagano,matsumoto|JP-20\n\
jp|okayama,kurashiki|JP-33\n\
jp|takamatsu|JP-37\n\
jp|sendai|JP-04\n\
jp|toyama|JP-16\n\
jp|kanazawa|JP-17\n\
jp|toyota,okazaki,kariya,toyohashi,ichinomiya|JP-23\n\
jp|shinagawa,minato,chiyoda,chuo,shibuya,shinjuku,koto,meguro,setagaya,taito,bunkyo|JP-13\n\
jp|kumamoto|JP-43\n\
jp|kagoshima|JP-46\n\
jp|naha|JP-47\n\
jp|matsuyama|JP-38\n\
jp|utsunomiya|JP-09\n\
jp|maebashi,takasaki|JP-10\n\
jp|mito,tsukuba,hitachi|JP-08\n\
jp|gifu,ogaki|JP-21\n\
jp|tsu,yokkaichi|JP-24\n\
jp|otsu,kusatsu|JP-25\n\
gb|sheffield|GB-SHF\n\
gb|guildford,addlestone,woking,camberley,leatherhead,weybridge,epsom,redhill,staines-upon-thames|GB-SRY\n\
gb|reading|GB-RDG\n\
gb|cardiff|GB-CRF\n\
gb|cheltenham,gloucester|GB-GLS\n\
gb|farnborough,basingstoke,fleet,andover,winchester|GB-HAM\n\
gb|luton|GB-LUT\n\
gb|aberdeen|GB-ABE\n\
gb|bath|GB-BAS\n\
gb|welwyn garden city,hemel hempstead,hatfield,st albans,watford,stevenage,hertford|GB-HRT\n\
gb|newcastle upon tyne,newcastle|GB-NET\n\
gb|york|GB-YOR\n\
gb|milton keynes|GB-MIK\n\
gb|high wycombe,marlow,beaconsfield,amersham|GB-BKM\n\
gb|uxbridge|GB-HIL\n\
gb|liverpool|GB-LIV\n\
gb|nottingham|GB-NGM\n\
gb|leicester|GB-LCE\n\
gb|southampton|GB-STH\n\
gb|belfast|GB-BFS\n\
gb|coventry|GB-COV\n\
gb|norwich|GB-NFK\n\
gb|brighton|GB-BNH\n\
gb|slough|GB-SLG\n\
gb|swindon|GB-SWD\n\
gb|warrington|GB-WRT\n\
gb|derby|GB-DER\n\
gb|plymouth|GB-PLY\n\
gb|portsmouth|GB-POR\n\
gb|ipswich|GB-SFK\n\
gb|chester|GB-CHW\n\
gb|maidenhead|GB-WNM\n\
gb|wokingham|GB-WOK\n\
gb|bracknell|GB-BRC\n\
gb|crawley|GB-WSX\n\
fr|paris,montrouge,courbevoie,boulogne-billancourt,issy-les-moulineaux,neuilly-sur-seine,rueil-malmaison,massy,levallois-perret,bezons,velizy-villacoublay,puteaux,clichy,suresnes,montreuil,aubervilliers,st ouen,saint-ouen,gennevilliers,la defense,paris la defense,nanterre,saint-denis,saint-cloud,meudon,vincennes,evry,saint-quentin-en-yvelines,versailles,guyancourt,rungis,cergy,chatillon,malakoff,ivry-sur-seine,vanves,la garenne-colombes,colombes,asnieres-sur-seine,sevres,le plessis-robinson,les ulis,orsay,palaiseau,saclay|FR-IDF\n\
fr|lyon,grenoble,villeurbanne,clermont-ferrand,annecy,saint-etienne,ecully|FR-ARA\n\
fr|marseille,nice,grasse,aix-en-provence,toulon,sophia antipolis,valbonne,cannes,rousset|FR-PAC\n\
fr|bordeaux,merignac,pessac,limoges,poitiers,la rochelle|FR-NAQ\n\
fr|toulouse,montpellier,nimes,perpignan,labege,blagnac|FR-OCC\n\
fr|nantes,saint-herblain,angers,le mans|FR-PDL\n\
fr|lille,loos,villeneuve-d'ascq,roubaix,amiens,marcq-en-baroeul,croix,lesquin|FR-HDF\n\
fr|strasbourg,reims,nancy,metz,mulhouse,troyes|FR-GES\n\
fr|rennes,brest,lorient,vannes,quimper|FR-BRE\n\
fr|daix,dijon,besancon|FR-BFC\n\
fr|rouen,caen,le havre|FR-NOR\n\
fr|orleans,tours,chartres|FR-CVL\n\
de|essen,leverkusen,bonn,bochum,herzogenrath,dortmund,duisburg,gelsenkirchen,munster,bielefeld,gutersloh,dusseldorf,cologne,koln,aachen,wuppertal,neuss,krefeld,monchengladbach,paderborn,oberhausen,mulheim an der ruhr,bergisch gladbach,ratingen,hilden,langenfeld,siegen,hamm|DE-NW\n\
de|herzogenaurach,nuremberg,nurnberg,pullach,planegg,augsburg,regensburg,ingolstadt,erlangen,wurzburg,martinsried,unterfohring,garching,ismaning,grunwald,unterhaching,aschheim,furth,bayreuth,passau,rosenheim,oberhaching,starnberg,gilching,feldkirchen|DE-BY\n\
de|wolfsburg,braunschweig,gottingen,osnabruck,oldenburg,salzgitter,wolfenbuttel,langenhagen|DE-NI\n\
de|mannheim,walldorf,heidelberg,tubingen,karlsruhe,freiburg,ulm,heilbronn,pforzheim,oberkochen,reutlingen,sindelfingen,boblingen,ludwigsburg,esslingen,metzingen,friedrichshafen,konstanz,weinheim,offenburg|DE-BW\n\
de|wiesbaden,darmstadt,eschborn,bad homburg,kassel,offenbach,giessen,marburg,frankfurt,bad homburg vor der hohe,oberursel,hanau,rosbach|DE-HE\n\
de|jena,erfurt,weimar|DE-TH\n\
de|lubeck,kiel,flensburg,norderstedt|DE-SH\n\
de|ludwigshafen am rhein,ludwigshafen,mainz,koblenz,trier,kaiserslautern,montabaur|DE-RP\n\
de|leipzig,dresden,chemnitz|DE-SN\n\
de|potsdam,cottbus|DE-BB\n\
de|magdeburg,halle|DE-ST\n\
de|rostock,schwerin|DE-MV\n\
de|saarbrucken|DE-SL\n\
nl|schiphol,hoofddorp,zaandam,haarlem,amstelveen,hilversum,alkmaar,lijnden,bussum|NL-NH\n\
nl|leiden,delft,leidschendam,papendrecht,dordrecht,gouda,zoetermeer|NL-ZH\n\
nl|breda,veldhoven,'s-hertogenbosch,tilburg,rosmalen,uden,helmond,oss|NL-NB\n\
nl|almere,lelystad|NL-FL\n\
nl|amersfoort,nieuwegein,zeist|NL-UT\n\
nl|heerlen,venlo,maastricht,sevenum|NL-LI\n\
nl|arnhem,nijmegen,apeldoorn,ede,duiven,groenlo|NL-GE\n\
nl|enschede,zwolle,hengelo,deventer|NL-OV\n\
nl|heerenveen,leeuwarden|NL-FR\n\
be|brussels,brussel,bruxelles,sint-jans-molenbeek|BE-BRU\n\
be|antwerp,antwerpen,mechelen,sint-katelijne-waver,turnhout,geel|BE-VAN\n\
be|leuven,halle,zaventem,vilvoorde,diegem,machelen|BE-VBR\n\
be|liege,herstal,seraing|BE-WLG\n\
be|louvain-la-neuve,mont-saint-guibert,la hulpe,waterloo,lasne,wavre,nivelles|BE-WBR\n\
be|ghent,gent,wetteren,nazareth,erembodegem,aalst,lembeke|BE-VOV\n\
be|kortrijk,zwevegem,ieper,sint-baafs-vijve,gits,brugge,bruges,roeselare,waregem|BE-VWV\n\
be|gosselies,charleroi,mons|BE-WHT\n\
be|hasselt,tessenderlo,genk|BE-VLI\n\
ch|lausanne,vevey,nyon,morges,montreux|CH-VD\n\
ch|bern,biel/bienne,biel,thun|CH-BE\n\
ch|lucerne,luzern,kriens|CH-LU\n\
ch|baar,steinhausen,cham,rotkreuz|CH-ZG\n\
ch|winterthur,stafa,hinwil,kilchberg,opfikon,glattbrugg,schlieren,dubendorf,wallisellen,uster,horgen,kloten|CH-ZH\n\
ch|sankt gallen,st. gallen,st gallen,rapperswil-jona,sennwald|CH-SG\n\
ch|schaffhausen|CH-SH\n\
ch|chur|CH-GR\n\
ch|pratteln,muttenz,allschwil,liestal,reinach|CH-BL\n\
ch|hergiswil,stans|CH-NW\n\
ch|pfaffikon,schwyz,freienbach|CH-SZ\n\
ch|arbon,frauenfeld|CH-TG\n\
ch|neuchatel|CH-NE\n\
ch|fribourg|CH-FR\n\
ch|lugano|CH-TI\n\
ch|aarau,baden|CH-AG\n\
se|solna,kista,nacka,danderyd,bromma,taby,huddinge,sundbyberg,spanga,hagersten,lidingo,sollentuna,stockholm|SE-AB\n\
se|lund,malmo,helsingborg|SE-M\n\
se|uppsala|SE-C\n\
se|linkoping,norrkoping|SE-E\n\
se|molndal,gothenburg,boras,trollhattan|SE-O\n\
se|vaxjo|SE-G\n\
se|jonkoping|SE-F\n\
se|sundsvall|SE-Y\n\
se|vasteras|SE-U\n\
se|umea|SE-AC\n\
se|karlstad|SE-S\n\
se|nykoping|SE-D\n\
se|orebro|SE-T\n\
no|lysaker,fornebu,asker,baerum,sarpsborg,moss,hovik,billingstad,drammen,lillestrom,sandvika|NO-30\n\
no|stavanger,sandnes,haugesund|NO-11\n\
no|trondheim|NO-50\n\
no|alesund,fosnavag,molde|NO-15\n\
no|kongsberg,tonsberg,porsgrunn,skien,sandefjord,larvik|NO-38\n\
no|arendal,kristiansand|NO-42\n\
no|tromso|NO-54\n\
no|hamar,lillehammer|NO-34\n\
no|mo i rana,bodo|NO-18\n\
no|storebo,bomlo,kverva|NO-46\n\
dk|copenhagen,copenhagen v,copenhagen k,copenhagen s,copenhagen o,copenhagen n,taastrup,ballerup,bagsvaerd,kongens lyngby,lyngby,brondby,hellerup,hedehusene,valby,soborg,horsholm,frederiksberg,glostrup,albertslund,allerod,smorum,humlebaek,hillerod,herlev,kastrup|DK-84\n\
dk|silkeborg,aarhus,horsens,holstebro,struer,herning,vejle,randers,skanderborg|DK-82\n\
dk|aalborg|DK-81\n\
dk|aabenraa,odense,svendborg,kolding,esbjerg|DK-83\n\
dk|roskilde,naestved|DK-85\n\
il|ramat gan,herzliya,holon,or yehuda,bnei brak,givatayim,tel aviv-yafo|IL-TA\n\
il|petah tikva,ness ziona,rehovot,lod,rishon lezion,netanya,hod hasharon,airport city,rosh haayin,yavne,ra'anana,kfar saba,modiin,yakum|IL-M\n\
il|caesarea|IL-HA\n\
il|migdal haemek,yokneam illit,yokneam,nazareth,jezreel valley|IL-Z\n\
il|ashdod,ashkelon,beersheba|IL-D\n\
id|jakarta selatan,jakarta pusat,jakarta barat,jakarta utara,jakarta timur,south jakarta,central jakarta,west jakarta,east jakarta,north jakarta|ID-JK\n\
id|tangerang,south tangerang,tangerang selatan,serang|ID-BT\n\
id|surabaya,sidoarjo,gresik,malang|ID-JI\n\
id|bekasi,bogor,bandung,cimahi,subang,karawang,depok|ID-JB\n\
id|palembang|ID-SS\n\
id|medan|ID-SU\n\
id|semarang|ID-JT\n\
id|batam|ID-KR\n\
za|sandton,bryanston,midrand,centurion,pretoria,bedfordview,randburg,rosebank,illovo,sandown,randfontein,roodepoort,parktown,weltevredenpark,morningside,waterfall city,germiston,kempton park|ZA-GP\n\
za|stellenbosch,bellville,paarl,somerset west|ZA-WC\n\
za|durban,pinetown,umhlanga,la lucia,richards bay|ZA-KZN\n\
in|coimbatore,madurai|IN-TN\n\
in|indore,bhopal|IN-MP\n\
in|navi mumbai,thane,nagpur,nashik,aurangabad|IN-MH\n\
in|secunderabad|IN-TG\n\
in|ludhiana,mohali,amritsar|IN-PB\n\
in|jaipur,udaipur|IN-RJ\n\
in|vadodara,surat,gandhinagar,rajkot|IN-GJ\n\
in|kochi,thiruvananthapuram,cochin|IN-KL\n\
in|chandigarh|IN-CH\n\
in|faridabad|IN-HR\n\
in|kanpur,ghaziabad,lucknow|IN-UP\n\
in|visakhapatnam,vijayawada|IN-AP\n\
in|mysore,mysuru,mangalore|IN-KA\n\
in|bhubaneswar|IN-OR\n\
in|guwahati|IN-AS\n\
in|patna|IN-BR\n\
in|raipur|IN-CT\n\
in|goa,panaji|IN-GA\n\
cl|santiago de chile,las condes,providencia,vitacura,maipu,macul,san bernardo,padre hurtado,huechuraba|CL-RM\n\
cl|valparaiso,vina del mar|CL-VS\n\
cl|concepcion|CL-BI\n\
gr|marousi,piraeus,kifissia,aspropyrgos,paiania,koropi,kallithea,chalandri,pallini,elliniko,moschato,ano liosia,avlona,acharnes,eleusis|GR-I\n\
gr|thessaloniki,kilkis,naousa,serres,polykastro|GR-B\n\
gr|chania,heraklion|GR-M\n\
gr|patras|GR-G";
