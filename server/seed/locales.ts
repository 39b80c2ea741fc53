import type { Random } from './random.ts';

/** Given and family names by language area, so people look like they belong to their country. */
// prettier-ignore
const NAMES = {
  en: {
    given: ['James', 'Oliver', 'Amelia', 'Charlotte', 'Harry', 'Sophie', 'Thomas', 'Emily', 'Daniel', 'Grace', 'Michael', 'Hannah', 'William', 'Chloe', 'Samuel', 'Laura', 'Robert', 'Jessica', 'David', 'Megan', 'Ethan', 'Olivia', 'Noah', 'Ava'],
    family: ['Smith', 'Jones', 'Taylor', 'Brown', 'Williams', 'Wilson', 'Johnson', 'Davies', 'Robinson', 'Wright', 'Thompson', 'Evans', 'Walker', 'White', 'Roberts', 'Green', 'Hall', 'Wood', 'Clarke', 'Hughes', 'Patel', "O'Connor", 'Campbell', 'Murphy', 'Anderson', 'Miller', 'Garcia', 'Martinez'],
  },
  de: {
    given: ['Lukas', 'Anna', 'Maximilian', 'Sophie', 'Jonas', 'Marie', 'Felix', 'Lena', 'Paul', 'Katharina', 'Stefan', 'Julia', 'Matthias', 'Sabine', 'Tobias', 'Claudia', 'Florian', 'Anja'],
    family: ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann', 'Koch', 'Richter', 'Wolf', 'Schröder', 'Neumann', 'Zimmermann', 'Braun', 'Hofer', 'Gruber', 'Huber'],
  },
  fr: {
    given: ['Camille', 'Louis', 'Léa', 'Hugo', 'Chloé', 'Gabriel', 'Manon', 'Arthur', 'Inès', 'Julien', 'Élodie', 'Nicolas', 'Mathilde', 'Antoine', 'Claire', 'Théo', 'Sophie', 'Mathieu'],
    family: ['Martin', 'Bernard', 'Dubois', 'Thomas', 'Robert', 'Richard', 'Petit', 'Durand', 'Leroy', 'Moreau', 'Simon', 'Laurent', 'Lefebvre', 'Michel', 'Garnier', 'Faure', 'Rousseau', 'Dupont', 'Lambert', 'Fontaine'],
  },
  nl: {
    given: ['Daan', 'Emma', 'Sem', 'Julia', 'Lucas', 'Sanne', 'Thijs', 'Fleur', 'Bram', 'Lotte', 'Jeroen', 'Anouk', 'Pieter', 'Eva', 'Ruben', 'Maud'],
    family: ['de Jong', 'Jansen', 'de Vries', 'van den Berg', 'van Dijk', 'Bakker', 'Janssen', 'Visser', 'Smit', 'Meijer', 'de Boer', 'Mulder', 'Peeters', 'Maes', 'Willems', 'Claes', 'Dubois', 'Wouters'],
  },
  nordic: {
    given: ['Erik', 'Astrid', 'Lars', 'Ingrid', 'Magnus', 'Sofia', 'Anders', 'Karin', 'Mikael', 'Elsa', 'Johan', 'Maja', 'Henrik', 'Freja', 'Mikko', 'Aino', 'Sanna', 'Oskar'],
    family: ['Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Eriksson', 'Larsen', 'Hansen', 'Nielsen', 'Jensen', 'Olsen', 'Berg', 'Lindqvist', 'Virtanen', 'Korhonen', 'Mäkinen', 'Haugen', 'Lund', 'Dahl'],
  },
  es: {
    given: ['Alejandro', 'Lucía', 'Pablo', 'Sofía', 'Javier', 'María', 'Carlos', 'Carmen', 'Diego', 'Paula', 'Sergio', 'Elena', 'Andrés', 'Valentina', 'Miguel', 'Isabel'],
    family: ['García', 'Fernández', 'González', 'Rodríguez', 'López', 'Martínez', 'Sánchez', 'Pérez', 'Gómez', 'Díaz', 'Hernández', 'Ruiz', 'Torres', 'Ramírez', 'Flores', 'Morales'],
  },
  it: {
    given: ['Francesco', 'Giulia', 'Alessandro', 'Chiara', 'Lorenzo', 'Francesca', 'Matteo', 'Sara', 'Andrea', 'Martina', 'Marco', 'Elisa', 'Davide', 'Federica'],
    family: ['Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Romano', 'Colombo', 'Ricci', 'Marino', 'Greco', 'Bruno', 'Gallo', 'Conti', 'De Luca', 'Costa', 'Fontana'],
  },
  pt: {
    given: ['João', 'Ana', 'Pedro', 'Beatriz', 'Tiago', 'Mariana', 'Rafael', 'Inês', 'Lucas', 'Gabriela', 'Rodrigo', 'Camila', 'Bruno', 'Larissa'],
    family: ['Silva', 'Santos', 'Ferreira', 'Pereira', 'Oliveira', 'Costa', 'Rodrigues', 'Martins', 'Sousa', 'Almeida', 'Carvalho', 'Gomes', 'Ribeiro', 'Lima'],
  },
  pl: {
    given: ['Jakub', 'Anna', 'Piotr', 'Katarzyna', 'Tomasz', 'Magdalena', 'Michał', 'Agnieszka', 'Jan', 'Zuzana', 'Petr', 'Tereza', 'Marek', 'Lucie'],
    family: ['Nowak', 'Kowalski', 'Wiśniewski', 'Wójcik', 'Kamiński', 'Lewandowski', 'Zieliński', 'Szymański', 'Novák', 'Svoboda', 'Dvořák', 'Černý', 'Procházka', 'Kučera'],
  },
  ja: {
    given: ['Haruto', 'Yui', 'Sota', 'Hina', 'Ren', 'Aoi', 'Takumi', 'Sakura', 'Kenji', 'Yuki', 'Daiki', 'Mei', 'Hiroshi', 'Naomi'],
    family: ['Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe', 'Ito', 'Yamamoto', 'Nakamura', 'Kobayashi', 'Kato', 'Yoshida', 'Yamada', 'Sasaki', 'Matsumoto'],
  },
  zh: {
    given: ['Wei', 'Mei Ling', 'Jun', 'Xin Yi', 'Hao', 'Li Na', 'Kai', 'Hui Min', 'Jia Hui', 'Zhi Wei', 'Wen', 'Siew Ling', 'Darren', 'Vivian'],
    family: ['Tan', 'Lim', 'Lee', 'Ng', 'Wong', 'Chan', 'Chen', 'Leung', 'Ho', 'Cheung', 'Goh', 'Teo', 'Lau', 'Yeung'],
  },
  in: {
    given: ['Aarav', 'Priya', 'Vivaan', 'Ananya', 'Rohan', 'Diya', 'Arjun', 'Isha', 'Karan', 'Neha', 'Rahul', 'Pooja', 'Vikram', 'Sneha'],
    family: ['Sharma', 'Verma', 'Gupta', 'Patel', 'Reddy', 'Iyer', 'Nair', 'Singh', 'Kumar', 'Mehta', 'Shah', 'Rao', 'Joshi', 'Kapoor'],
  },
  ar: {
    given: ['Omar', 'Fatima', 'Ahmed', 'Layla', 'Khalid', 'Mariam', 'Yousef', 'Noura', 'Hassan', 'Aisha', 'Rashid', 'Sara'],
    family: ['Al Mansoori', 'Al Hashimi', 'Haddad', 'Khoury', 'Al Nuaimi', 'Saleh', 'Al Suwaidi', 'Nasser', 'Farouk', 'Al Zaabi', 'Aziz', 'Rahman'],
  },
} as const satisfies Record<string, { given: readonly string[]; family: readonly string[] }>;

export type NameSet = (typeof NAMES)[keyof typeof NAMES];

/** [city, state or province, postal code pattern]: `#` a digit, `@` a capital letter, '' where the country has none. */
type City = readonly [string, string, string];

type AddressStyle = 'number-first' | 'number-last' | 'french' | 'japanese';

export interface CountryProfile {
  code: string;
  /** Relative share of legal entities. */
  weight: number;
  names: NameSet;
  suffixes: readonly string[];
  registrationNumber: (random: Random) => string;
  /** Company line patterns with punctuation; `#` a digit. */
  phones: readonly string[];
  mobiles: readonly string[];
  /** Top-level domain of company web and mail addresses. */
  tld: string;
  cities: readonly City[];
  streets: readonly string[];
  addressStyle: AddressStyle;
  /** The national register a verification can cite. */
  registry: string;
  /** Four-character prefix of a local LEI issuer. */
  leiIssuer: string;
}

/** Luhn check digit for a string of digits. */
function luhnCheckDigit(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return String((10 - (sum % 10)) % 10);
}

/** Australian Company Number: eight digits and a weighted check digit. */
function australianCompanyNumber(random: Random): string {
  const body = random.digits(8);
  const sum = Array.from(body).reduce((total, digit, i) => total + Number(digit) * (8 - i), 0);
  const full = body + String((10 - (sum % 10)) % 10);
  return `${full.slice(0, 3)} ${full.slice(3, 6)} ${full.slice(6)}`;
}

/** Belgian enterprise number: 0 or 1, seven digits, and 97 minus the first eight mod 97. */
function belgianEnterpriseNumber(random: Random): string {
  const body = `${random.pick(['0', '1'])}${random.digits(7)}`;
  const full = body + String(97 - (Number(body) % 97)).padStart(2, '0');
  return `${full.slice(0, 4)}.${full.slice(4, 7)}.${full.slice(7)}`;
}

const letters = (random: Random, count: number) =>
  Array.from({ length: count }, () => String.fromCharCode(65 + random.int(0, 25))).join('');

// prettier-ignore
export const COUNTRIES: readonly CountryProfile[] = [
  {
    code: 'GB', weight: 14, names: NAMES.en, suffixes: ['Ltd', 'Limited', 'PLC', 'LLP'],
    registrationNumber: (r) => (r.chance(0.9) ? `${r.pick(['0', '1'])}${r.digits(7)}` : `SC${r.digits(6)}`),
    phones: ['+44 20 7### ####', '+44 161 ### ####', '+44 131 4## ####', '+44 (0)117 9## ####'],
    mobiles: ['+44 771# ######'], tld: 'co.uk',
    cities: [['London', 'Greater London', 'EC# #@@'], ['Manchester', 'Greater Manchester', 'M# #@@'], ['Edinburgh', 'Scotland', 'EH# #@@'], ['Bristol', 'Bristol', 'BS# #@@'], ['Leeds', 'West Yorkshire', 'LS# #@@'], ['Cambridge', 'Cambridgeshire', 'CB# #@@']],
    streets: ['High Street', 'Station Road', 'King Street', 'Victoria Road', 'Church Lane', 'Queen Street', 'Mill Lane', 'Bishopsgate', 'Deansgate'],
    addressStyle: 'number-first', registry: 'Companies House', leiIssuer: '2138',
  },
  {
    code: 'US', weight: 14, names: NAMES.en, suffixes: ['Inc.', 'LLC', 'Corp.', 'Co.'],
    registrationNumber: (r) => r.digits(7),
    phones: ['+1 (212) 4##-####', '+1 415-6##-####', '+1 (312) 8##-####'],
    mobiles: ['+1 (646) 3##-####'], tld: 'com',
    cities: [['New York', 'NY', '100##'], ['San Francisco', 'CA', '941##'], ['Austin', 'TX', '787##'], ['Chicago', 'IL', '606##'], ['Wilmington', 'DE', '198##'], ['Boston', 'MA', '021##'], ['Seattle', 'WA', '981##'], ['Miami', 'FL', '331##']],
    streets: ['Main Street', 'Market Street', 'Broadway', 'Oak Avenue', 'Park Avenue', 'Congress Avenue', 'Elm Street', 'Washington Boulevard'],
    addressStyle: 'number-first', registry: 'SEC EDGAR', leiIssuer: '5493',
  },
  {
    code: 'DE', weight: 9, names: NAMES.de, suffixes: ['GmbH', 'AG', 'GmbH & Co. KG', 'UG (haftungsbeschränkt)'],
    registrationNumber: (r) => `${r.pick(['HRB', 'HRB', 'HRA'])} ${r.int(1000, 249999)}`,
    phones: ['+49 30 ########', '+49 (0)89 #######', '+49 40 ### ###-##', '+49 69 ########'],
    mobiles: ['+49 151 ########', '+49 17# #######'], tld: 'de',
    cities: [['Berlin', 'Berlin', '10###'], ['München', 'Bayern', '80###'], ['Hamburg', 'Hamburg', '20###'], ['Frankfurt am Main', 'Hessen', '60###'], ['Köln', 'Nordrhein-Westfalen', '50###'], ['Stuttgart', 'Baden-Württemberg', '70###']],
    streets: ['Hauptstraße', 'Friedrichstraße', 'Bahnhofstraße', 'Gartenstraße', 'Lindenallee', 'Schillerstraße', 'Kaiserstraße', 'Am Markt'],
    addressStyle: 'number-last', registry: 'Handelsregister', leiIssuer: '5299',
  },
  {
    code: 'FR', weight: 7, names: NAMES.fr, suffixes: ['SAS', 'SA', 'SARL', 'SASU'],
    registrationNumber: (r) => {
      const body = r.digits(8);
      const siren = body + luhnCheckDigit(body);
      return `${siren.slice(0, 3)} ${siren.slice(3, 6)} ${siren.slice(6)}`;
    },
    phones: ['+33 1 ## ## ## ##', '+33 4 7# ## ## ##', '+33 (0)5 5# ## ## ##'],
    mobiles: ['+33 6 7# ## ## ##', '+33 7 8# ## ## ##'], tld: 'fr',
    cities: [['Paris', 'Île-de-France', '750##'], ['Lyon', 'Auvergne-Rhône-Alpes', '6900#'], ['Marseille', "Provence-Alpes-Côte d'Azur", '130##'], ['Toulouse', 'Occitanie', '310##'], ['Bordeaux', 'Nouvelle-Aquitaine', '330##'], ['Lille', 'Hauts-de-France', '590##']],
    streets: ['rue de la République', 'avenue des Champs-Élysées', 'boulevard Haussmann', 'rue du Faubourg Saint-Honoré', 'rue Victor Hugo', 'quai de la Tournelle', 'rue de Rivoli'],
    addressStyle: 'french', registry: 'Infogreffe', leiIssuer: '9695',
  },
  {
    code: 'NL', weight: 5, names: NAMES.nl, suffixes: ['B.V.', 'N.V.'],
    registrationNumber: (r) => `${r.int(1, 9)}${r.digits(7)}`,
    phones: ['+31 20 ### ####', '+31 (0)10 ### ## ##', '+31 30-#######'],
    mobiles: ['+31 6 2#######'], tld: 'nl',
    cities: [['Amsterdam', 'Noord-Holland', '10## @@'], ['Rotterdam', 'Zuid-Holland', '30## @@'], ['Utrecht', 'Utrecht', '35## @@'], ['Eindhoven', 'Noord-Brabant', '56## @@'], ['Den Haag', 'Zuid-Holland', '25## @@']],
    streets: ['Herengracht', 'Keizersgracht', 'Kerkstraat', 'Stationsplein', 'Coolsingel', 'Beursplein', 'Prinsengracht'],
    addressStyle: 'number-last', registry: 'KvK Handelsregister', leiIssuer: '7245',
  },
  {
    code: 'SE', weight: 4, names: NAMES.nordic, suffixes: ['AB', 'AB (publ)'],
    registrationNumber: (r) => {
      const body = `55${r.int(6, 9)}${r.digits(6)}`;
      const full = body + luhnCheckDigit(body);
      return `${full.slice(0, 6)}-${full.slice(6)}`;
    },
    phones: ['+46 8-### ### ##', '+46 31-### ## ##', '+46 (0)40 ## ## ##'],
    mobiles: ['+46 70-### ## ##', '+46 73-### ## ##'], tld: 'se',
    cities: [['Stockholm', 'Stockholms län', '1## ##'], ['Göteborg', 'Västra Götalands län', '4## ##'], ['Malmö', 'Skåne län', '2## ##'], ['Uppsala', 'Uppsala län', '75# ##']],
    streets: ['Drottninggatan', 'Kungsgatan', 'Storgatan', 'Sveavägen', 'Vasagatan', 'Birger Jarlsgatan'],
    addressStyle: 'number-last', registry: 'Bolagsverket', leiIssuer: '5493',
  },
  {
    code: 'AU', weight: 5, names: NAMES.en, suffixes: ['Pty Ltd', 'Pty. Ltd.', 'Ltd'],
    registrationNumber: australianCompanyNumber,
    phones: ['+61 2 9### ####', '+61 3 9### ####', '+61 (0)7 3### ####'],
    mobiles: ['+61 41# ### ###'], tld: 'com.au',
    cities: [['Sydney', 'NSW', '2000'], ['Melbourne', 'VIC', '30##'], ['Brisbane', 'QLD', '40##'], ['Perth', 'WA', '60##'], ['Adelaide', 'SA', '50##']],
    streets: ['George Street', 'Collins Street', 'Queen Street', 'Pitt Street', 'St Georges Terrace', 'King William Street'],
    addressStyle: 'number-first', registry: 'ASIC', leiIssuer: '9845',
  },
  {
    code: 'JP', weight: 4, names: NAMES.ja, suffixes: ['K.K.', 'Co., Ltd.', 'G.K.'],
    registrationNumber: (r) => `${r.int(1, 9)}${r.digits(12)}`,
    phones: ['+81 3-5###-####', '+81 6-####-####', '+81 (0)45-###-####'],
    mobiles: ['+81 90-1###-####', '+81 80-####-####'], tld: 'co.jp',
    cities: [['Chiyoda-ku', 'Tokyo', '100-####'], ['Minato-ku', 'Tokyo', '105-####'], ['Osaka', 'Osaka', '530-####'], ['Yokohama', 'Kanagawa', '220-####'], ['Nagoya', 'Aichi', '450-####']],
    streets: ['Marunouchi', 'Otemachi', 'Shiba', 'Umeda', 'Minatomirai', 'Meieki'],
    addressStyle: 'japanese', registry: 'Legal Affairs Bureau', leiIssuer: '3538',
  },
  {
    code: 'CA', weight: 4, names: NAMES.en, suffixes: ['Inc.', 'Ltd.', 'Corp.', 'ULC'],
    registrationNumber: (r) => (r.chance(0.6) ? `${r.digits(7)}-${r.digits(1)}` : `BC${r.digits(7)}`),
    phones: ['+1 (416) 5##-####', '+1 604-6##-####', '+1 (514) 8##-####'],
    mobiles: ['+1 (647) 2##-####'], tld: 'ca',
    cities: [['Toronto', 'ON', 'M#@ #@#'], ['Vancouver', 'BC', 'V#@ #@#'], ['Montréal', 'QC', 'H#@ #@#'], ['Calgary', 'AB', 'T#@ #@#'], ['Ottawa', 'ON', 'K#@ #@#']],
    streets: ['Bay Street', 'Yonge Street', 'Granville Street', 'Rue Sainte-Catherine', 'Bank Street', '8 Avenue SW'],
    addressStyle: 'number-first', registry: 'Corporations Canada', leiIssuer: '5493',
  },
  {
    code: 'IE', weight: 3, names: NAMES.en, suffixes: ['Limited', 'DAC', 'Teoranta', 'PLC'],
    registrationNumber: (r) => String(r.int(100000, 799999)),
    phones: ['+353 1 ### ####', '+353 (0)21 ### ####'],
    mobiles: ['+353 87 ### ####'], tld: 'ie',
    cities: [['Dublin', 'County Dublin', 'D0# @###'], ['Cork', 'County Cork', 'T12 @###'], ['Galway', 'County Galway', 'H91 @###'], ['Limerick', 'County Limerick', 'V94 @###']],
    streets: ['Grafton Street', "St Stephen's Green", 'Harcourt Street', 'Patrick Street', 'Eyre Square', "Sir John Rogerson's Quay"],
    addressStyle: 'number-first', registry: 'CRO', leiIssuer: '6354',
  },
  {
    code: 'ES', weight: 4, names: NAMES.es, suffixes: ['S.L.', 'S.A.', 'S.L.U.'],
    registrationNumber: (r) => `${r.pick(['A', 'B', 'B', 'B'])}${r.digits(8)}`,
    phones: ['+34 91 ### ## ##', '+34 93 ### ## ##', '+34 96 ### ## ##'],
    mobiles: ['+34 6## ### ###'], tld: 'es',
    cities: [['Madrid', 'Comunidad de Madrid', '280##'], ['Barcelona', 'Cataluña', '080##'], ['Valencia', 'Comunidad Valenciana', '460##'], ['Sevilla', 'Andalucía', '410##'], ['Bilbao', 'País Vasco', '480##']],
    streets: ['Calle de Alcalá', 'Paseo de la Castellana', 'Gran Vía', 'Avinguda Diagonal', 'Calle Mayor', 'Calle de Serrano'],
    addressStyle: 'number-last', registry: 'Registro Mercantil', leiIssuer: '9598',
  },
  {
    code: 'IT', weight: 4, names: NAMES.it, suffixes: ['S.r.l.', 'S.p.A.', 'S.a.s.'],
    registrationNumber: (r) => `${r.pick(['MI', 'RM', 'TO', 'BO', 'FI'])}-${r.int(1000000, 2699999)}`,
    phones: ['+39 02 #### ####', '+39 06 4## #####', '+39 011 ### ####'],
    mobiles: ['+39 33# ### ####'], tld: 'it',
    cities: [['Milano', 'Lombardia', '201##'], ['Roma', 'Lazio', '001##'], ['Torino', 'Piemonte', '101##'], ['Bologna', 'Emilia-Romagna', '401##'], ['Firenze', 'Toscana', '501##']],
    streets: ['Via Roma', 'Corso Buenos Aires', 'Via Montenapoleone', 'Via del Corso', 'Via Garibaldi', 'Piazza della Repubblica'],
    addressStyle: 'number-last', registry: 'Registro delle Imprese', leiIssuer: '8156',
  },
  {
    code: 'CH', weight: 3, names: NAMES.de, suffixes: ['AG', 'GmbH', 'SA', 'Sàrl'],
    registrationNumber: (r) => `CHE-${r.digits(3)}.${r.digits(3)}.${r.digits(3)}`,
    phones: ['+41 44 ### ## ##', '+41 22 ### ## ##', '+41 (0)61 ### ## ##'],
    mobiles: ['+41 79 ### ## ##', '+41 78 ### ## ##'], tld: 'ch',
    cities: [['Zürich', 'ZH', '80##'], ['Genève', 'GE', '12##'], ['Basel', 'BS', '40##'], ['Zug', 'ZG', '630#'], ['Lausanne', 'VD', '100#']],
    streets: ['Bahnhofstrasse', 'Rue du Rhône', 'Baarerstrasse', 'Freie Strasse', 'Avenue de la Gare', 'Seefeldstrasse'],
    addressStyle: 'number-last', registry: 'Zefix Commercial Register', leiIssuer: '5067',
  },
  {
    code: 'AT', weight: 2, names: NAMES.de, suffixes: ['GmbH', 'AG', 'KG'],
    registrationNumber: (r) => `FN ${r.int(10000, 599999)} ${letters(r, 1).toLowerCase()}`,
    phones: ['+43 1 5## ## ##', '+43 (0)662 ## ## ##', '+43 316 ######'],
    mobiles: ['+43 664 #######', '+43 676 #######'], tld: 'at',
    cities: [['Wien', 'Wien', '1###'], ['Salzburg', 'Salzburg', '50##'], ['Graz', 'Steiermark', '80##'], ['Linz', 'Oberösterreich', '40##']],
    streets: ['Mariahilfer Straße', 'Kärntner Ring', 'Getreidegasse', 'Herrengasse', 'Landstraße'],
    addressStyle: 'number-last', registry: 'Firmenbuch', leiIssuer: '5299',
  },
  {
    code: 'BE', weight: 2, names: NAMES.nl, suffixes: ['BV', 'NV', 'SA', 'SRL'],
    registrationNumber: belgianEnterpriseNumber,
    phones: ['+32 2 5## ## ##', '+32 3 2## ## ##', '+32 (0)9 2## ## ##'],
    mobiles: ['+32 47# ## ## ##'], tld: 'be',
    cities: [['Brussel', 'Brussels Hoofdstedelijk Gewest', '10##'], ['Antwerpen', 'Antwerpen', '20##'], ['Gent', 'Oost-Vlaanderen', '90##'], ['Liège', 'Liège', '40##']],
    streets: ['Louizalaan', 'Meir', 'Rue Neuve', 'Veldstraat', "Boulevard d'Avroy", 'Kunstlaan'],
    addressStyle: 'number-last', registry: 'Crossroads Bank for Enterprises', leiIssuer: '5493',
  },
  {
    code: 'DK', weight: 2, names: NAMES.nordic, suffixes: ['ApS', 'A/S', 'I/S'],
    registrationNumber: (r) => `${r.int(1, 4)}${r.digits(7)}`,
    phones: ['+45 33 1# ## ##', '+45 70 2# ## ##', '+45 86 1# ## ##'],
    mobiles: ['+45 26 ## ## ##'], tld: 'dk',
    cities: [['København', 'Region Hovedstaden', '1###'], ['Aarhus', 'Region Midtjylland', '80##'], ['Odense', 'Region Syddanmark', '50##']],
    streets: ['Strøget', 'Bredgade', 'Vesterbrogade', 'Søndergade', 'Amaliegade'],
    addressStyle: 'number-last', registry: 'CVR', leiIssuer: '5493',
  },
  {
    code: 'NO', weight: 2, names: NAMES.nordic, suffixes: ['AS', 'ASA'],
    registrationNumber: (r) => `9${r.digits(2)} ${r.digits(3)} ${r.digits(3)}`,
    phones: ['+47 22 ## ## ##', '+47 55 ## ## ##'],
    mobiles: ['+47 9## ## ###', '+47 41# ## ###'], tld: 'no',
    cities: [['Oslo', 'Oslo', '0###'], ['Bergen', 'Vestland', '50##'], ['Stavanger', 'Rogaland', '40##'], ['Trondheim', 'Trøndelag', '70##']],
    streets: ['Karl Johans gate', 'Bryggen', 'Storgata', 'Kongens gate', 'Dronning Eufemias gate'],
    addressStyle: 'number-last', registry: 'Brønnøysundregistrene', leiIssuer: '5967',
  },
  {
    code: 'FI', weight: 2, names: NAMES.nordic, suffixes: ['Oy', 'Oyj', 'Ab'],
    registrationNumber: (r) => `${r.int(1, 3)}${r.digits(6)}-${r.digits(1)}`,
    phones: ['+358 9 2## ####', '+358 (0)2 ### ####'],
    mobiles: ['+358 40 ### ####', '+358 50 ### ####'], tld: 'fi',
    cities: [['Helsinki', 'Uusimaa', '00###'], ['Espoo', 'Uusimaa', '02###'], ['Tampere', 'Pirkanmaa', '33###'], ['Turku', 'Varsinais-Suomi', '20###']],
    streets: ['Mannerheimintie', 'Aleksanterinkatu', 'Hämeenkatu', 'Esplanadi', 'Keilaranta'],
    addressStyle: 'number-last', registry: 'PRH Trade Register', leiIssuer: '7437',
  },
  {
    code: 'PL', weight: 3, names: NAMES.pl, suffixes: ['sp. z o.o.', 'S.A.', 'sp.k.'],
    registrationNumber: (r) => `0000${r.int(100000, 999999)}`,
    phones: ['+48 22 ### ## ##', '+48 12 ### ## ##', '+48 (71) ### ## ##'],
    mobiles: ['+48 5## ### ###', '+48 6## ### ###'], tld: 'pl',
    cities: [['Warszawa', 'mazowieckie', '0#-###'], ['Kraków', 'małopolskie', '3#-###'], ['Wrocław', 'dolnośląskie', '5#-###'], ['Gdańsk', 'pomorskie', '80-###']],
    streets: ['ul. Marszałkowska', 'ul. Floriańska', 'al. Jerozolimskie', 'ul. Świdnicka', 'ul. Długa'],
    addressStyle: 'number-last', registry: 'KRS', leiIssuer: '2594',
  },
  {
    code: 'CZ', weight: 2, names: NAMES.pl, suffixes: ['s.r.o.', 'a.s.'],
    registrationNumber: (r) => `${r.int(1, 9)}${r.digits(7)}`,
    phones: ['+420 2## ### ###', '+420 54# ### ###'],
    mobiles: ['+420 603 ### ###', '+420 77# ### ###'], tld: 'cz',
    cities: [['Praha', 'Hlavní město Praha', '1## ##'], ['Brno', 'Jihomoravský kraj', '6## ##'], ['Ostrava', 'Moravskoslezský kraj', '7## ##']],
    streets: ['Václavské náměstí', 'Na Příkopě', 'Národní', 'Masarykova', 'Vinohradská'],
    addressStyle: 'number-last', registry: 'Obchodní rejstřík', leiIssuer: '3157',
  },
  {
    code: 'SG', weight: 3, names: NAMES.zh, suffixes: ['Pte. Ltd.', 'Pte Ltd', 'Ltd.'],
    registrationNumber: (r) => `${r.int(2005, 2024)}${r.digits(5)}${letters(r, 1)}`,
    phones: ['+65 62## ####'],
    mobiles: ['+65 81## ####', '+65 91## ####'], tld: 'com.sg',
    cities: [['Singapore', 'Central Region', '0#####'], ['Singapore', 'Downtown Core', '01####'], ['Singapore', 'Jurong East', '60####']],
    streets: ['Raffles Place', 'Shenton Way', 'Orchard Road', 'Robinson Road', 'Cecil Street', 'Marina Boulevard'],
    addressStyle: 'number-first', registry: 'ACRA', leiIssuer: '5493',
  },
  {
    code: 'HK', weight: 2, names: NAMES.zh, suffixes: ['Limited', 'Company Limited'],
    registrationNumber: (r) => String(r.int(1000000, 3299999)),
    phones: ['+852 25## ####', '+852 21## ####'],
    mobiles: ['+852 94## ####', '+852 61## ####'], tld: 'com.hk',
    cities: [['Central', 'Hong Kong Island', ''], ['Wan Chai', 'Hong Kong Island', ''], ['Tsim Sha Tsui', 'Kowloon', ''], ['Kwun Tong', 'Kowloon', '']],
    streets: ["Queen's Road Central", 'Des Voeux Road', 'Hennessy Road', 'Nathan Road', 'Connaught Road', 'Hoi Bun Road'],
    addressStyle: 'number-first', registry: 'Companies Registry', leiIssuer: '2549',
  },
  {
    code: 'NZ', weight: 2, names: NAMES.en, suffixes: ['Limited', 'Ltd'],
    registrationNumber: (r) => String(r.int(1000000, 8999999)),
    phones: ['+64 9 3## ####', '+64 4 4## ####', '+64 (0)3 3## ####'],
    mobiles: ['+64 21 ### ####', '+64 27 ### ####'], tld: 'co.nz',
    cities: [['Auckland', 'Auckland', '10##'], ['Wellington', 'Wellington', '60##'], ['Christchurch', 'Canterbury', '80##']],
    streets: ['Queen Street', 'Lambton Quay', 'Colombo Street', 'Customs Street', 'The Terrace'],
    addressStyle: 'number-first', registry: 'NZ Companies Office', leiIssuer: '5493',
  },
  {
    code: 'ZA', weight: 2, names: NAMES.en, suffixes: ['(Pty) Ltd', 'Ltd', 'Inc.'],
    registrationNumber: (r) => `${r.int(1995, 2024)}/${r.digits(6)}/${r.pick(['07', '07', '06', '21'])}`,
    phones: ['+27 11 ### ####', '+27 21 ### ####', '+27 (0)31 ### ####'],
    mobiles: ['+27 82 ### ####', '+27 72 ### ####'], tld: 'co.za',
    cities: [['Johannesburg', 'Gauteng', '2###'], ['Cape Town', 'Western Cape', '8###'], ['Durban', 'KwaZulu-Natal', '4###'], ['Pretoria', 'Gauteng', '0###']],
    streets: ['Rivonia Road', 'Long Street', 'Jan Smuts Avenue', 'Smith Street', 'Church Street'],
    addressStyle: 'number-first', registry: 'CIPC', leiIssuer: '3789',
  },
  {
    code: 'IN', weight: 3, names: NAMES.in, suffixes: ['Private Limited', 'Pvt. Ltd.', 'Limited'],
    registrationNumber: (r) =>
      `${r.pick(['U', 'U', 'L'])}${r.digits(5)}${r.pick(['MH', 'KA', 'DL', 'TN', 'TG'])}${r.int(1995, 2023)}${r.pick(['PTC', 'PTC', 'PLC'])}${r.digits(6)}`,
    phones: ['+91 22 2### ####', '+91 80 #### ####', '+91 (11) 2### ####'],
    mobiles: ['+91 9#### #####', '+91 8#### #####'], tld: 'in',
    cities: [['Mumbai', 'Maharashtra', '400 0##'], ['Bengaluru', 'Karnataka', '560 0##'], ['New Delhi', 'Delhi', '110 0##'], ['Chennai', 'Tamil Nadu', '600 0##'], ['Hyderabad', 'Telangana', '500 0##']],
    streets: ['Nariman Point', 'MG Road', 'Connaught Place', 'Anna Salai', 'Banjara Hills Road No. 12', 'Bandra Kurla Complex'],
    addressStyle: 'number-first', registry: 'Ministry of Corporate Affairs', leiIssuer: '3358',
  },
  {
    code: 'BR', weight: 3, names: NAMES.pt, suffixes: ['Ltda.', 'S.A.', 'EIRELI'],
    registrationNumber: (r) => `${r.digits(2)}.${r.digits(3)}.${r.digits(3)}/0001-${r.digits(2)}`,
    phones: ['+55 11 3###-####', '+55 21 2###-####', '+55 (31) 3###-####'],
    mobiles: ['+55 11 9####-####', '+55 21 9####-####'], tld: 'com.br',
    cities: [['São Paulo', 'SP', '0####-###'], ['Rio de Janeiro', 'RJ', '2####-###'], ['Belo Horizonte', 'MG', '3####-###'], ['Curitiba', 'PR', '8####-###']],
    streets: ['Avenida Paulista', 'Rua Oscar Freire', 'Avenida Atlântica', 'Rua da Bahia', 'Avenida Brigadeiro Faria Lima'],
    addressStyle: 'number-last', registry: 'Receita Federal', leiIssuer: '2549',
  },
  {
    code: 'MX', weight: 2, names: NAMES.es, suffixes: ['S.A. de C.V.', 'S. de R.L. de C.V.', 'S.A.P.I. de C.V.'],
    registrationNumber: (r) => `${letters(r, 3)}${String(r.int(0, 23)).padStart(2, '0')}${String(r.int(1, 12)).padStart(2, '0')}${String(r.int(1, 28)).padStart(2, '0')}${letters(r, 1)}${r.digits(1)}${letters(r, 1)}`,
    phones: ['+52 55 #### ####', '+52 (81) #### ####', '+52 33 #### ####'],
    mobiles: ['+52 55 #### ####'], tld: 'com.mx',
    cities: [['Ciudad de México', 'CDMX', '0####'], ['Monterrey', 'Nuevo León', '64###'], ['Guadalajara', 'Jalisco', '44###']],
    streets: ['Paseo de la Reforma', 'Avenida Insurgentes Sur', 'Avenida Constitución', 'Avenida Chapultepec'],
    addressStyle: 'number-last', registry: 'SIGER Registro Público de Comercio', leiIssuer: '4469',
  },
  {
    code: 'LU', weight: 2, names: NAMES.fr, suffixes: ['S.à r.l.', 'S.A.', 'SCSp'],
    registrationNumber: (r) => `B${r.int(10000, 289999)}`,
    phones: ['+352 26 ## ## ##', '+352 4# ## ##'],
    mobiles: ['+352 621 ### ###', '+352 691 ### ###'], tld: 'lu',
    cities: [['Luxembourg', 'Luxembourg', 'L-1###'], ['Esch-sur-Alzette', 'Esch-sur-Alzette', 'L-4###'], ['Strassen', 'Luxembourg', 'L-8###']],
    streets: ['Boulevard Royal', 'Avenue John F. Kennedy', 'Rue de la Gare', "Route d'Arlon", 'Avenue de la Liberté'],
    addressStyle: 'french', registry: 'Luxembourg Business Registers', leiIssuer: '2221',
  },
  {
    code: 'PT', weight: 2, names: NAMES.pt, suffixes: ['Lda.', 'S.A.', 'Unipessoal Lda.'],
    registrationNumber: (r) => `5${r.digits(8)}`,
    phones: ['+351 21 ### ####', '+351 22 ### ####'],
    mobiles: ['+351 91 ### ####', '+351 96 ### ####'], tld: 'pt',
    cities: [['Lisboa', 'Lisboa', '1###-###'], ['Porto', 'Porto', '4###-###'], ['Braga', 'Braga', '47##-###']],
    streets: ['Avenida da Liberdade', 'Rua Augusta', 'Rua de Santa Catarina', 'Avenida dos Aliados', 'Rua do Ouro'],
    addressStyle: 'number-last', registry: 'Registo Comercial', leiIssuer: '2594',
  },
  {
    code: 'AE', weight: 2, names: NAMES.ar, suffixes: ['LLC', 'FZE', 'FZ-LLC', 'DMCC'],
    registrationNumber: (r) => `${r.pick(['CN-', 'DMCC-', 'ADGM-'])}${r.int(100000, 4999999)}`,
    phones: ['+971 4 3## ####', '+971 2 6## ####'],
    mobiles: ['+971 50 ### ####', '+971 55 ### ####'], tld: 'ae',
    cities: [['Dubai', 'Dubai', ''], ['Abu Dhabi', 'Abu Dhabi', ''], ['Sharjah', 'Sharjah', '']],
    streets: ['Sheikh Zayed Road', 'Al Maryah Island', 'Jumeirah Lakes Towers', 'Corniche Road', 'Business Bay'],
    addressStyle: 'number-first', registry: 'DED Business Registry', leiIssuer: '5493',
  },
];

/** Fills `#` with digits and `@` with capital letters. */
export function fillPattern(random: Random, pattern: string): string {
  return pattern.replace(/[#@]/g, (slot) =>
    slot === '#' ? String(random.int(0, 9)) : letters(random, 1),
  );
}

export function streetAddress(random: Random, country: CountryProfile): string {
  const street = random.pick(country.streets);
  const number = random.int(1, 240);
  switch (country.addressStyle) {
    case 'number-first':
      return random.chance(0.3)
        ? `${String(number)} ${street}, ${random.pick(['Suite', 'Floor', 'Unit'])} ${String(random.int(2, 40))}`
        : `${String(number)} ${street}`;
    case 'number-last':
      return `${street} ${String(number)}`;
    case 'french':
      return `${String(number)}${random.chance(0.1) ? ' bis' : ''} ${street}`;
    case 'japanese':
      return `${String(random.int(1, 4))}-${String(random.int(1, 20))}-${String(random.int(1, 15))} ${street}`;
  }
}

/**
 * Leading words of company names in the country's language, spelt with its letters (ß, É, Ø, Ł,
 * ...), so that search meets the names registers hold.
 */
// prettier-ignore
export const LOCAL_COMPANY_WORDS: Readonly<Partial<Record<string, readonly string[]>>> = {
  DE: ['Südstern', 'Weißdorn', 'Löwenberg', 'Mühlbach', 'Großfeld', 'Rheinstraße'],
  AT: ['Österreichische', 'Alpenländische', 'Wörthersee', 'Donaustraße', 'Kärntner'],
  CH: ['Zürcher', 'Genfersee', 'Säntis', 'Bündner', 'Glärnisch'],
  FR: ['Étoile', 'Élysée', 'Côte Vermeille', 'Forêt Noire', 'Aéro', 'Générale'],
  BE: ['Liège', 'Brabançonne', 'Wallonië', 'Sambre-et-Meuse'],
  LU: ['Pétrusse', 'Grand-Ducale', 'Alzette'],
  ES: ['Ibérica', 'Peñalara', 'Andaluza', 'Cantábrica', 'Alcázar'],
  MX: ['Querétaro', 'Yucatán', 'Peñasco', 'Mazatlán'],
  PT: ['Atlântico', 'Lusitânia', 'São Jorge', 'Ação'],
  BR: ['Paraná', 'Sertão', 'São Francisco', 'Amazônia'],
  SE: ['Öresund', 'Skärgård', 'Sjöstjärna', 'Fjällvind'],
  NO: ['Bjørnstad', 'Sørlandet', 'Østfold', 'Nordlys'],
  DK: ['Ærø', 'Øresund', 'Bølgen', 'Fyns'],
  FI: ['Väinö', 'Järvi', 'Pohjolan', 'Hämeen'],
  PL: ['Śląsk', 'Łódzka', 'Wiślana', 'Świt', 'Żuraw'],
  CZ: ['Vltava', 'Žižkov', 'Šumava', 'Říp', 'Českomoravská'],
};

// prettier-ignore
export const COMPANY_WORDS = {
  leading: ['Aurora', 'Bluewater', 'Cedar', 'Crescent', 'Evergreen', 'Granite', 'Harbor', 'Ironbridge', 'Juniper', 'Kestrel', 'Lakeside', 'Meridian', 'Northgate', 'Oakridge', 'Pinnacle', 'Quantum', 'Riverside', 'Silverline', 'Summit', 'Trident', 'Vantage', 'Westbrook', 'Zenith', 'Alder', 'Beacon', 'Copperfield', 'Falcon', 'Helios', 'Lumen', 'Nimbus', 'Orion', 'Polaris', 'Sterling', 'Atlas', 'Borealis', 'Cobalt', 'Delta', 'Ember', 'Fjord', 'Greenfield', 'Horizon', 'Ivory', 'Keystone', 'Lighthouse', 'Maple', 'Nordic', 'Obsidian', 'Redwood', 'Sapphire', 'Tidewater'],
  trades: ['Logistics', 'Capital', 'Holdings', 'Technologies', 'Trading', 'Pharmaceuticals', 'Foods', 'Engineering', 'Consulting', 'Energy', 'Textiles', 'Analytics', 'Marine', 'Software', 'Ventures', 'Media', 'Biotech', 'Construction', 'Materials', 'Retail', 'Labs', 'Partners', 'Systems', 'Robotics', 'Payments', 'Freight', 'Minerals', 'Agritech', 'Insurance Brokers', 'Medical Devices', 'Advisory', 'Semiconductors', 'Hospitality', 'Properties', 'Renewables', 'Wholesale', 'Aviation Services', 'Data Centres', 'Asset Management', 'Chemicals'],
} as const;

/** What each trade does, for business statements. */
export const TRADE_ACTIVITIES: Record<string, string> = {
  Logistics: 'third-party warehousing and road freight',
  Capital: 'private credit and growth-equity investment',
  Holdings: 'holding and managing shares in operating subsidiaries',
  Technologies: 'development and licensing of enterprise software',
  Trading: 'import and wholesale distribution of consumer goods',
  Pharmaceuticals: 'manufacture and distribution of generic medicines',
  Foods: 'production of packaged and chilled foods',
  Engineering: 'mechanical and electrical engineering services',
  Consulting: 'management and regulatory consulting',
  Energy: 'supply of electricity and gas to business customers',
  Textiles: 'design and sourcing of garments and technical fabrics',
  Analytics: 'data analytics and reporting services',
  Marine: 'ship management and marine services',
  Software: 'software-as-a-service products for small businesses',
  Ventures: 'early-stage venture investment',
  Media: 'digital publishing and advertising',
  Biotech: 'research into biological therapeutics',
  Construction: 'commercial construction and fit-out',
  Materials: 'production of building materials',
  Retail: 'operation of retail stores and an online shop',
  Labs: 'contract laboratory testing',
  Partners: 'professional advisory services',
  Systems: 'systems integration and IT managed services',
  Robotics: 'design of industrial automation and robotics',
  Payments: 'payment processing for online merchants',
  Freight: 'international freight forwarding and customs brokerage',
  Minerals: 'exploration and trading of industrial minerals',
  Agritech: 'precision-agriculture equipment and software',
  'Insurance Brokers': 'commercial insurance broking',
  'Medical Devices': 'manufacture of diagnostic medical devices',
  Advisory: 'corporate finance advisory',
  Semiconductors: 'design of integrated circuits',
  Hospitality: 'operation of hotels and serviced apartments',
  Properties: 'ownership and letting of commercial property',
  Renewables: 'development and operation of solar and wind farms',
  Wholesale: 'wholesale distribution of industrial supplies',
  'Aviation Services': 'aircraft maintenance and ground handling',
  'Data Centres': 'colocation data-centre services',
  'Asset Management': 'discretionary portfolio management',
  Chemicals: 'formulation and distribution of specialty chemicals',
};
