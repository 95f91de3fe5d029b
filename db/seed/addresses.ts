import { seedId } from './ids';

/**
 * The built-in address source: real street names of real towns, with plausible postal
 * codes (each street in a town gets its own code, stepping from the town's first code).
 * Common street names recur across towns so a three-letter prefix finds several matches.
 */
type Town = [city: string, region: string, firstPostalCode: number, step: number, streets: string[]];

const SE: Town[] = [
  ['Stockholm', 'Stockholms län', 11120, 7, ['Drottninggatan', 'Kungsgatan', 'Sveavägen', 'Götgatan', 'Hornsgatan', 'Storgatan']],
  ['Göteborg', 'Västra Götalands län', 41101, 6, ['Kungsgatan', 'Drottninggatan', 'Vasagatan', 'Linnégatan', 'Storgatan']],
  ['Malmö', 'Skåne län', 21122, 5, ['Södra Förstadsgatan', 'Drottninggatan', 'Kungsgatan', 'Storgatan', 'Regementsgatan']],
  ['Uppsala', 'Uppsala län', 75220, 6, ['Drottninggatan', 'Kungsgatan', 'Storgatan', 'Svartbäcksgatan', 'Sysslomansgatan']],
  ['Västerås', 'Västmanlands län', 72211, 4, ['Storgatan', 'Kungsgatan', 'Vasagatan', 'Sturegatan', 'Drottninggatan']],
  ['Örebro', 'Örebro län', 70210, 5, ['Drottninggatan', 'Storgatan', 'Kungsgatan', 'Järnvägsgatan', 'Rudbecksgatan']],
  ['Linköping', 'Östergötlands län', 58220, 4, ['Storgatan', 'Drottninggatan', 'Ågatan', 'Kungsgatan', 'Trädgårdsgatan']],
  ['Helsingborg', 'Skåne län', 25220, 5, ['Drottninggatan', 'Kungsgatan', 'Järnvägsgatan', 'Södra Storgatan', 'Bruksgatan']],
  ['Norrköping', 'Östergötlands län', 60220, 4, ['Drottninggatan', 'Kungsgatan', 'Hospitalsgatan', 'Storgatan', 'Repslagaregatan']],
  ['Jönköping', 'Jönköpings län', 55310, 6, ['Storgatan', 'Kungsgatan', 'Västra Storgatan', 'Östra Storgatan', 'Barnarpsgatan']],
  ['Umeå', 'Västerbottens län', 90326, 3, ['Storgatan', 'Kungsgatan', 'Rådhusesplanaden', 'Skolgatan', 'Järnvägsallén']],
  ['Lund', 'Skåne län', 22221, 4, ['Stora Södergatan', 'Kyrkogatan', 'Storgatan', 'Bangatan', 'Drottensgatan']],
  ['Gävle', 'Gävleborgs län', 80320, 5, ['Drottninggatan', 'Kungsgatan', 'Nygatan', 'Storgatan', 'Norra Kungsgatan']],
  ['Sundsvall', 'Västernorrlands län', 85230, 3, ['Storgatan', 'Kyrkogatan', 'Esplanaden', 'Köpmangatan', 'Drottninggatan']],
  ['Karlstad', 'Värmlands län', 65224, 4, ['Drottninggatan', 'Kungsgatan', 'Storgatan', 'Västra Torggatan', 'Östra Torggatan']],
  ['Luleå', 'Norrbottens län', 97231, 3, ['Storgatan', 'Kungsgatan', 'Smedjegatan', 'Skeppsbrogatan', 'Köpmangatan']],
];

const DE: Town[] = [
  ['Berlin', 'Berlin', 10115, 11, ['Friedrichstraße', 'Hauptstraße', 'Bahnhofstraße', 'Torstraße', 'Schönhauser Allee', 'Kastanienallee']],
  ['Hamburg', 'Hamburg', 20095, 9, ['Mönckebergstraße', 'Jungfernstieg', 'Bahnhofstraße', 'Hauptstraße', 'Eppendorfer Weg']],
  ['München', 'Bayern', 80331, 7, ['Kaufingerstraße', 'Leopoldstraße', 'Hauptstraße', 'Bahnhofstraße', 'Schillerstraße']],
  ['Köln', 'Nordrhein-Westfalen', 50667, 5, ['Hohe Straße', 'Schildergasse', 'Hauptstraße', 'Bahnhofstraße', 'Goethestraße']],
  ['Frankfurt am Main', 'Hessen', 60311, 6, ['Zeil', 'Berger Straße', 'Hauptstraße', 'Bahnhofstraße', 'Schillerstraße']],
  ['Stuttgart', 'Baden-Württemberg', 70173, 6, ['Königstraße', 'Hauptstraße', 'Bahnhofstraße', 'Schulstraße', 'Marienstraße']],
  ['Düsseldorf', 'Nordrhein-Westfalen', 40213, 4, ['Königsallee', 'Hauptstraße', 'Bahnhofstraße', 'Kirchstraße', 'Lindenstraße']],
  ['Leipzig', 'Sachsen', 4109, 6, ['Grimmaische Straße', 'Hauptstraße', 'Bahnhofstraße', 'Karl-Liebknecht-Straße', 'Gartenstraße']],
  ['Dresden', 'Sachsen', 1067, 5, ['Prager Straße', 'Hauptstraße', 'Bahnhofstraße', 'Königsbrücker Straße', 'Schillerstraße']],
  ['Hannover', 'Niedersachsen', 30159, 4, ['Georgstraße', 'Bahnhofstraße', 'Hauptstraße', 'Lister Meile', 'Goethestraße']],
  ['Nürnberg', 'Bayern', 90402, 5, ['Königstraße', 'Hauptstraße', 'Bahnhofstraße', 'Karolinenstraße', 'Gartenstraße']],
  ['Bremen', 'Bremen', 28195, 4, ['Obernstraße', 'Bahnhofstraße', 'Hauptstraße', 'Schlachte', 'Lindenstraße']],
  [
    'Freiburg im Breisgau',
    'Baden-Württemberg',
    79098,
    3,
    ['Kaiser-Joseph-Straße', 'Bertoldstraße', 'Hauptstraße', 'Bahnhofstraße', 'Schillerstraße'],
  ],
  ['Münster', 'Nordrhein-Westfalen', 48143, 3, ['Prinzipalmarkt', 'Ludgeristraße', 'Hauptstraße', 'Bahnhofstraße', 'Gartenstraße']],
  ['Heidelberg', 'Baden-Württemberg', 69117, 3, ['Hauptstraße', 'Bahnhofstraße', 'Bergstraße', 'Kirchstraße', 'Schulstraße']],
  ['Rostock', 'Mecklenburg-Vorpommern', 18055, 2, ['Kröpeliner Straße', 'Lange Straße', 'Hauptstraße', 'Bahnhofstraße', 'Schillerstraße']],
];

const AT: Town[] = [
  [
    'Wien',
    'Wien',
    1010,
    10,
    ['Kärntner Straße', 'Mariahilfer Straße', 'Landstraßer Hauptstraße', 'Praterstraße', 'Hauptstraße', 'Bahnhofstraße'],
  ],
  ['Graz', 'Steiermark', 8010, 10, ['Herrengasse', 'Annenstraße', 'Hauptplatz', 'Hauptstraße', 'Bahnhofstraße']],
  ['Linz', 'Oberösterreich', 4020, 10, ['Landstraße', 'Hauptplatz', 'Hauptstraße', 'Bahnhofstraße', 'Herrenstraße']],
  ['Salzburg', 'Salzburg', 5020, 0, ['Getreidegasse', 'Linzer Gasse', 'Bahnhofstraße', 'Hauptstraße', 'Kaigasse']],
  ['Innsbruck', 'Tirol', 6020, 0, ['Maria-Theresien-Straße', 'Museumstraße', 'Hauptstraße', 'Bahnhofstraße', 'Anichstraße']],
  ['Klagenfurt am Wörthersee', 'Kärnten', 9020, 0, ['Alter Platz', 'Bahnhofstraße', 'Kramergasse', 'Hauptstraße', 'Villacher Straße']],
  ['Villach', 'Kärnten', 9500, 0, ['Hauptplatz', 'Bahnhofstraße', 'Hauptstraße', 'Italiener Straße', 'Kirchenplatz']],
  ['Wels', 'Oberösterreich', 4600, 0, ['Stadtplatz', 'Bahnhofstraße', 'Hauptstraße', 'Ringstraße', 'Kaiser-Josef-Platz']],
  ['St. Pölten', 'Niederösterreich', 3100, 0, ['Kremser Gasse', 'Bahnhofplatz', 'Hauptstraße', 'Wiener Straße', 'Linzer Straße']],
  ['Dornbirn', 'Vorarlberg', 6850, 0, ['Marktstraße', 'Bahnhofstraße', 'Hauptstraße', 'Schulgasse', 'Riedgasse']],
  ['Bregenz', 'Vorarlberg', 6900, 0, ['Kaiserstraße', 'Rathausstraße', 'Bahnhofstraße', 'Kirchstraße', 'Römerstraße']],
  ['Leoben', 'Steiermark', 8700, 0, ['Hauptplatz', 'Franz-Josef-Straße', 'Bahnhofstraße', 'Hauptstraße', 'Kärntner Straße']],
  ['Steyr', 'Oberösterreich', 4400, 0, ['Stadtplatz', 'Enge Gasse', 'Bahnhofstraße', 'Hauptstraße', 'Wieserfeldplatz']],
  ['Wiener Neustadt', 'Niederösterreich', 2700, 0, ['Hauptplatz', 'Neunkirchner Straße', 'Bahngasse', 'Hauptstraße', 'Wiener Straße']],
  ['Baden', 'Niederösterreich', 2500, 0, ['Hauptplatz', 'Pfarrgasse', 'Bahnhofstraße', 'Hauptstraße', 'Wassergasse']],
  ['Krems an der Donau', 'Niederösterreich', 3500, 0, ['Landstraße', 'Obere Landstraße', 'Hauptstraße', 'Bahnhofstraße', 'Ringstraße']],
];

const US: Town[] = [
  ['Springfield', 'IL', 62701, 1, ['Main Street', 'Washington Street', 'Monroe Street', 'Adams Street', 'Lincoln Avenue', 'Oak Street']],
  ['Portland', 'OR', 97201, 3, ['Main Street', 'Oak Street', 'Burnside Street', 'Alder Street', 'Hawthorne Boulevard']],
  ['Portland', 'ME', 4101, 1, ['Congress Street', 'Commercial Street', 'Oak Street', 'Fore Street', 'Exchange Street']],
  ['Austin', 'TX', 78701, 2, ['Congress Avenue', 'Main Street', 'Lamar Boulevard', 'Oak Street', 'Sixth Street']],
  ['Seattle', 'WA', 98101, 2, ['Pike Street', 'Pine Street', 'Main Street', 'Broadway', 'Maple Avenue']],
  ['Denver', 'CO', 80202, 1, ['Larimer Street', 'Main Street', 'Colfax Avenue', 'Oak Street', 'Broadway']],
  ['Boston', 'MA', 2108, 2, ['Beacon Street', 'Boylston Street', 'Main Street', 'Tremont Street', 'Oak Street']],
  ['Chicago', 'IL', 60601, 3, ['Michigan Avenue', 'State Street', 'Oak Street', 'Main Street', 'Lake Street']],
  ['Madison', 'WI', 53703, 1, ['State Street', 'Main Street', 'Williamson Street', 'Oakland Avenue', 'Johnson Street']],
  ['Minneapolis', 'MN', 55401, 2, ['Hennepin Avenue', 'Nicollet Mall', 'Main Street', 'Oak Street', 'Lake Street']],
  ['Columbus', 'OH', 43215, 1, ['High Street', 'Main Street', 'Broad Street', 'Oak Street', 'Maple Avenue']],
  ['Burlington', 'VT', 5401, 0, ['Church Street', 'Main Street', 'Pine Street', 'Maple Street', 'Oak Street']],
  ['Boise', 'ID', 83702, 0, ['Main Street', 'Idaho Street', 'Capitol Boulevard', 'Oak Street', 'Maple Avenue']],
  ['Nashville', 'TN', 37203, 1, ['Broadway', 'Main Street', 'Church Street', 'Oak Street', 'Music Square East']],
  ['San Diego', 'CA', 92101, 2, ['Broadway', 'Market Street', 'Main Street', 'Oak Street', 'Maple Street']],
  ['Ann Arbor', 'MI', 48104, 0, ['Main Street', 'State Street', 'Liberty Street', 'Washington Street', 'Oakland Avenue']],
];

const FORMATS: Record<string, (code: number) => string> = {
  SE: (n) => {
    const s = String(n).padStart(5, '0');
    return `${s.slice(0, 3)} ${s.slice(3)}`;
  },
  DE: (n) => String(n).padStart(5, '0'),
  AT: (n) => String(n).padStart(4, '0'),
  US: (n) => String(n).padStart(5, '0'),
};

export type AddressRow = {
  id: string;
  country: string;
  street: string;
  streetKey: string;
  postalCode: string;
  city: string;
  region: string | null;
};

export function addressBookRows(): AddressRow[] {
  const rows: AddressRow[] = [];
  for (const [country, towns] of [
    ['SE', SE],
    ['DE', DE],
    ['AT', AT],
    ['US', US],
  ] as const) {
    const format = FORMATS[country];
    if (!format) throw new Error(`No postal code format for ${country}`);
    for (const [city, region, first, step, streets] of towns) {
      streets.forEach((street, i) => {
        const postalCode = format(first + i * step);
        rows.push({
          id: seedId('addr', country, city, street, postalCode),
          country,
          street,
          streetKey: street.toLowerCase(),
          postalCode,
          city,
          region,
        });
      });
    }
  }
  return rows;
}
