// Real cities with a zip code, coordinates and metro area, so addresses are consistent and the
// zip radius search has true distances to work with.
export interface Continent {
  id: string;
  name: string;
}
export interface Country {
  code: string;
  name: string;
  continent: string;
}
export interface City {
  city: string;
  /** State or province name (full). */
  state: string;
  stateCode: string;
  countryCode: string;
  zip: string;
  lat: number;
  lon: number;
  /** Metro region id (U.S. and Canada), e.g. usa.california.san_francisco. */
  metro?: string;
  /** Relative share of companies. */
  weight: number;
  phonePrefix: string;
}

export const CONTINENTS: Continent[] = [
  { id: "north-america", name: "North America" },
  { id: "europe", name: "Europe" },
  { id: "asia", name: "Asia" },
  { id: "oceania", name: "Oceania" },
  { id: "south-america", name: "South America" },
  { id: "africa", name: "Africa" },
];

export const COUNTRIES: Country[] = [
  { code: "US", name: "United States", continent: "North America" },
  { code: "CA", name: "Canada", continent: "North America" },
  { code: "MX", name: "Mexico", continent: "North America" },
  { code: "GB", name: "United Kingdom", continent: "Europe" },
  { code: "DE", name: "Germany", continent: "Europe" },
  { code: "FR", name: "France", continent: "Europe" },
  { code: "NL", name: "Netherlands", continent: "Europe" },
  { code: "IE", name: "Ireland", continent: "Europe" },
  { code: "SE", name: "Sweden", continent: "Europe" },
  { code: "ES", name: "Spain", continent: "Europe" },
  { code: "JP", name: "Japan", continent: "Asia" },
  { code: "IN", name: "India", continent: "Asia" },
  { code: "SG", name: "Singapore", continent: "Asia" },
  { code: "CN", name: "China", continent: "Asia" },
  { code: "IL", name: "Israel", continent: "Asia" },
  { code: "AU", name: "Australia", continent: "Oceania" },
  { code: "BR", name: "Brazil", continent: "South America" },
  { code: "ZA", name: "South Africa", continent: "Africa" },
];

const us = (city: string, state: string, stateCode: string, zip: string, lat: number, lon: number, metro: string, weight: number, area: string): City => ({
  city,
  state,
  stateCode,
  countryCode: "US",
  zip,
  lat,
  lon,
  metro,
  weight,
  phonePrefix: `+1 (${area})`,
});
const intl = (city: string, state: string, stateCode: string, countryCode: string, zip: string, lat: number, lon: number, weight: number, phonePrefix: string, metro?: string): City => ({
  city,
  state,
  stateCode,
  countryCode,
  zip,
  lat,
  lon,
  weight,
  phonePrefix,
  ...(metro ? { metro } : {}),
});

export const CITIES: City[] = [
  us("New York", "New York", "NY", "10001", 40.7506, -73.9972, "usa.new_york.new_york", 10, "212"),
  us("Stamford", "Connecticut", "CT", "06901", 41.0534, -73.5387, "usa.new_york.new_york", 2, "203"),
  us("Newark", "New Jersey", "NJ", "07102", 40.7357, -74.1724, "usa.new_york.new_york", 2, "973"),
  us("Los Angeles", "California", "CA", "90012", 34.0614, -118.2385, "usa.california.los_angeles", 7, "213"),
  us("Irvine", "California", "CA", "92618", 33.6687, -117.7356, "usa.california.los_angeles", 2, "949"),
  us("San Francisco", "California", "CA", "94105", 37.7898, -122.3942, "usa.california.san_francisco", 7, "415"),
  us("Oakland", "California", "CA", "94612", 37.8085, -122.2707, "usa.california.san_francisco", 2, "510"),
  us("Palo Alto", "California", "CA", "94301", 37.4443, -122.1502, "usa.california.san_francisco", 2, "650"),
  us("San Jose", "California", "CA", "95113", 37.3337, -121.8907, "usa.california.san_francisco", 3, "408"),
  us("San Diego", "California", "CA", "92101", 32.719, -117.1627, "usa.california.san_diego", 3, "619"),
  us("Sacramento", "California", "CA", "95814", 38.5804, -121.4939, "usa.california.sacramento", 1, "916"),
  us("Chicago", "Illinois", "IL", "60601", 41.8858, -87.6181, "usa.illinois.chicago", 6, "312"),
  us("Houston", "Texas", "TX", "77002", 29.7569, -95.3625, "usa.texas.houston", 5, "713"),
  us("Dallas", "Texas", "TX", "75201", 32.7876, -96.7994, "usa.texas.dallas", 4, "214"),
  us("Plano", "Texas", "TX", "75024", 33.0753, -96.8089, "usa.texas.dallas", 2, "972"),
  us("Austin", "Texas", "TX", "78701", 30.2711, -97.7437, "usa.texas.austin", 4, "512"),
  us("San Antonio", "Texas", "TX", "78205", 29.4237, -98.4925, "usa.texas.san_antonio", 2, "210"),
  us("Phoenix", "Arizona", "AZ", "85004", 33.4515, -112.0686, "usa.arizona.phoenix", 3, "602"),
  us("Philadelphia", "Pennsylvania", "PA", "19103", 39.9525, -75.1741, "usa.pennsylvania.philadelphia", 3, "215"),
  us("Pittsburgh", "Pennsylvania", "PA", "15222", 40.4473, -79.9931, "usa.pennsylvania.pittsburgh", 2, "412"),
  us("Boston", "Massachusetts", "MA", "02108", 42.3576, -71.0637, "usa.massachusetts.boston", 5, "617"),
  us("Cambridge", "Massachusetts", "MA", "02139", 42.3647, -71.1042, "usa.massachusetts.boston", 2, "617"),
  us("Seattle", "Washington", "WA", "98101", 47.6114, -122.3305, "usa.washington.seattle", 4, "206"),
  us("Bellevue", "Washington", "WA", "98004", 47.6163, -122.2005, "usa.washington.seattle", 2, "425"),
  us("Denver", "Colorado", "CO", "80202", 39.7525, -104.9995, "usa.colorado.denver", 3, "303"),
  us("Boulder", "Colorado", "CO", "80302", 40.015, -105.2705, "usa.colorado.denver", 1, "303"),
  us("Washington", "District of Columbia", "DC", "20001", 38.9101, -77.0147, "usa.district_of_columbia.washington", 3, "202"),
  us("Baltimore", "Maryland", "MD", "21202", 39.2963, -76.6072, "usa.maryland.baltimore", 2, "410"),
  us("Richmond", "Virginia", "VA", "23219", 37.5407, -77.436, "usa.virginia.richmond", 1, "804"),
  us("Atlanta", "Georgia", "GA", "30303", 33.7529, -84.3915, "usa.georgia.atlanta", 4, "404"),
  us("Miami", "Florida", "FL", "33131", 25.7637, -80.1899, "usa.florida.miami", 3, "305"),
  us("Tampa", "Florida", "FL", "33602", 27.9517, -82.4588, "usa.florida.tampa", 2, "813"),
  us("Orlando", "Florida", "FL", "32801", 28.5418, -81.379, "usa.florida.orlando", 2, "407"),
  us("Jacksonville", "Florida", "FL", "32202", 30.3275, -81.6512, "usa.florida.jacksonville", 1, "904"),
  us("Charlotte", "North Carolina", "NC", "28202", 35.2285, -80.8443, "usa.north_carolina.charlotte", 2, "704"),
  us("Raleigh", "North Carolina", "NC", "27601", 35.7727, -78.6388, "usa.north_carolina.raleigh", 2, "919"),
  us("Nashville", "Tennessee", "TN", "37203", 36.1505, -86.792, "usa.tennessee.nashville", 2, "615"),
  us("Memphis", "Tennessee", "TN", "38103", 35.1495, -90.049, "usa.tennessee.memphis", 1, "901"),
  us("Detroit", "Michigan", "MI", "48226", 42.3314, -83.0476, "usa.michigan.detroit", 2, "313"),
  us("Minneapolis", "Minnesota", "MN", "55402", 44.9759, -93.2716, "usa.minnesota.minneapolis", 2, "612"),
  us("Columbus", "Ohio", "OH", "43215", 39.9653, -83.0045, "usa.ohio.columbus", 2, "614"),
  us("Cleveland", "Ohio", "OH", "44114", 41.5061, -81.6747, "usa.ohio.cleveland", 1, "216"),
  us("Cincinnati", "Ohio", "OH", "45202", 39.1071, -84.5041, "usa.ohio.cincinnati", 1, "513"),
  us("Indianapolis", "Indiana", "IN", "46204", 39.7718, -86.1566, "usa.indiana.indianapolis", 1, "317"),
  us("Milwaukee", "Wisconsin", "WI", "53202", 43.0436, -87.8995, "usa.wisconsin.milwaukee", 1, "414"),
  us("Kansas City", "Missouri", "MO", "64106", 39.1048, -94.5707, "usa.missouri.kansas_city", 1, "816"),
  us("St. Louis", "Missouri", "MO", "63101", 38.6313, -90.1927, "usa.missouri.st_louis", 1, "314"),
  us("Portland", "Oregon", "OR", "97204", 45.5186, -122.6743, "usa.oregon.portland", 2, "503"),
  us("Las Vegas", "Nevada", "NV", "89101", 36.172, -115.1224, "usa.nevada.las_vegas", 1, "702"),
  us("Salt Lake City", "Utah", "UT", "84111", 40.7559, -111.8845, "usa.utah.salt_lake_city", 2, "801"),
  us("Birmingham", "Alabama", "AL", "35203", 33.5187, -86.8104, "usa.alabama.birmingham", 1, "205"),
  us("New Orleans", "Louisiana", "LA", "70112", 29.9511, -90.0715, "usa.louisiana.new_orleans", 1, "504"),
  us("Oklahoma City", "Oklahoma", "OK", "73102", 35.4676, -97.5164, "usa.oklahoma.oklahoma_city", 1, "405"),
  us("Omaha", "Nebraska", "NE", "68102", 41.2587, -95.9378, "usa.nebraska.omaha", 1, "402"),
  us("Des Moines", "Iowa", "IA", "50309", 41.5868, -93.625, "usa.iowa.des_moines", 1, "515"),
  us("Albuquerque", "New Mexico", "NM", "87102", 35.0844, -106.6504, "usa.new_mexico.albuquerque", 1, "505"),
  us("Louisville", "Kentucky", "KY", "40202", 38.2527, -85.7585, "usa.kentucky.louisville", 1, "502"),
  us("Hartford", "Connecticut", "CT", "06103", 41.7658, -72.6734, "usa.connecticut.hartford", 1, "860"),
  us("Providence", "Rhode Island", "RI", "02903", 41.824, -71.4128, "usa.rhode_island.providence", 1, "401"),
  us("Boise", "Idaho", "ID", "83702", 43.615, -116.2023, "usa.idaho.boise", 1, "208"),
  us("Honolulu", "Hawaii", "HI", "96813", 21.3099, -157.8581, "usa.hawaii.honolulu", 1, "808"),
  us("Anchorage", "Alaska", "AK", "99501", 61.2181, -149.9003, "usa.alaska.anchorage", 1, "907"),
  intl("Toronto", "Ontario", "ON", "CA", "M5H 2N2", 43.6532, -79.3832, 4, "+1 (416)", "can.ontario.toronto"),
  intl("Ottawa", "Ontario", "ON", "CA", "K1P 1J1", 45.4215, -75.6972, 1, "+1 (613)", "can.ontario.ottawa"),
  intl("Vancouver", "British Columbia", "BC", "CA", "V6B 1A1", 49.2827, -123.1207, 2, "+1 (604)", "can.british_columbia.vancouver"),
  intl("Montreal", "Quebec", "QC", "CA", "H3B 1A7", 45.5017, -73.5673, 2, "+1 (514)", "can.quebec.montreal"),
  intl("Calgary", "Alberta", "AB", "CA", "T2P 1J9", 51.0447, -114.0719, 1, "+1 (403)", "can.alberta.calgary"),
  intl("Mexico City", "Ciudad de Mexico", "CMX", "MX", "06000", 19.4326, -99.1332, 1, "+52 55"),
  intl("London", "England", "ENG", "GB", "EC2V 7HH", 51.5155, -0.0922, 5, "+44 20"),
  intl("Manchester", "England", "ENG", "GB", "M1 1AD", 53.4808, -2.2426, 1, "+44 161"),
  intl("Edinburgh", "Scotland", "SCT", "GB", "EH1 1YZ", 55.9533, -3.1883, 1, "+44 131"),
  intl("Berlin", "Berlin", "BE", "DE", "10117", 52.52, 13.405, 2, "+49 30"),
  intl("Munich", "Bavaria", "BY", "DE", "80331", 48.1351, 11.582, 2, "+49 89"),
  intl("Frankfurt", "Hesse", "HE", "DE", "60311", 50.1109, 8.6821, 1, "+49 69"),
  intl("Paris", "Ile-de-France", "IDF", "FR", "75001", 48.8566, 2.3522, 3, "+33 1"),
  intl("Lyon", "Auvergne-Rhone-Alpes", "ARA", "FR", "69001", 45.764, 4.8357, 1, "+33 4"),
  intl("Amsterdam", "North Holland", "NH", "NL", "1012 JS", 52.3676, 4.9041, 2, "+31 20"),
  intl("Dublin", "Leinster", "L", "IE", "D02 X285", 53.3498, -6.2603, 2, "+353 1"),
  intl("Stockholm", "Stockholm County", "AB", "SE", "111 21", 59.3293, 18.0686, 1, "+46 8"),
  intl("Madrid", "Community of Madrid", "MD", "ES", "28013", 40.4168, -3.7038, 1, "+34 91"),
  intl("Tokyo", "Tokyo", "13", "JP", "100-0005", 35.6812, 139.7671, 3, "+81 3"),
  intl("Bangalore", "Karnataka", "KA", "IN", "560001", 12.9716, 77.5946, 2, "+91 80"),
  intl("Mumbai", "Maharashtra", "MH", "IN", "400001", 18.9388, 72.8354, 2, "+91 22"),
  intl("Singapore", "Singapore", "SG", "SG", "018989", 1.28, 103.85, 2, "+65"),
  intl("Shanghai", "Shanghai", "SH", "CN", "200000", 31.2304, 121.4737, 2, "+86 21"),
  intl("Tel Aviv", "Tel Aviv District", "TA", "IL", "6100000", 32.0853, 34.7818, 1, "+972 3"),
  intl("Sydney", "New South Wales", "NSW", "AU", "2000", -33.8688, 151.2093, 2, "+61 2"),
  intl("Melbourne", "Victoria", "VIC", "AU", "3000", -37.8136, 144.9631, 1, "+61 3"),
  intl("Sao Paulo", "Sao Paulo", "SP", "BR", "01310-100", -23.5614, -46.6559, 2, "+55 11"),
  intl("Johannesburg", "Gauteng", "GP", "ZA", "2001", -26.2041, 28.0473, 1, "+27 11"),
];

export const COUNTRY_BY_CODE = new Map(COUNTRIES.map((c) => [c.code, c]));

/** Display name of a metro id, e.g. "CA - San Francisco". */
function metroName(metroId: string): string {
  const city = CITIES.find((c) => c.metro === metroId && c.city.toLowerCase().replace(/[ .]+/g, "_").replace(/_+$/, "") === metroId.split(".")[2]);
  const any = city ?? CITIES.find((c) => c.metro === metroId);
  const last = metroId.split(".")[2] ?? metroId;
  const title = last
    .split("_")
    .map((w) => (w === "st" ? "St." : w.charAt(0).toUpperCase() + w.slice(1)))
    .join(" ");
  return `${any?.stateCode ?? ""} - ${title}`;
}

export const METROS: { id: string; name: string }[] = [...new Set(CITIES.flatMap((c) => (c.metro ? [c.metro] : [])))]
  .sort()
  .map((id) => ({ id, name: metroName(id) }));

/** Zip codes per city: U.S. cities get four neighbouring zips a few miles apart. */
export interface ZipPoint {
  zip: string;
  lat: number;
  lon: number;
}
export function cityZips(city: City): ZipPoint[] {
  if (city.countryCode !== "US") return [{ zip: city.zip, lat: city.lat, lon: city.lon }];
  const base = Number(city.zip);
  const offsets: [number, number][] = [
    [0, 0],
    [0.031, 0.022],
    [-0.027, 0.035],
    [0.018, -0.041],
  ];
  return offsets.map(([dLat, dLon], k) => ({
    zip: String(base + k).padStart(5, "0"),
    lat: Math.round((city.lat + dLat) * 1e4) / 1e4,
    lon: Math.round((city.lon + dLon) * 1e4) / 1e4,
  }));
}
