import { seedId } from './ids';

/**
 * Pickup points per country. Postal codes are spread over each country's range, so
 * "near a postal code" can be approximated by numeric closeness of the code.
 */
type Point = [carrier: string, name: string, line1: string, postalCode: string, city: string, hours: Hours];
type Hours = Record<string, string>;

const SHOP: Hours = { 'mon-fri': '08-20', sat: '10-16', sun: 'closed' };
const MARKET: Hours = { 'mon-fri': '07-22', sat: '08-22', sun: '09-21' };
const LOCKER: Hours = { 'mon-sun': '00-24' };
const OFFICE: Hours = { 'mon-fri': '09-18', sat: '09-12', sun: 'closed' };

const POINTS: Record<'SE' | 'DE' | 'AT' | 'US', Point[]> = {
  SE: [
    ['PostNord', 'ICA Supermarket Hötorget', 'Sveavägen 20', '111 57', 'Stockholm', MARKET],
    ['PostNord', 'Pressbyrån Centralstationen', 'Vasagatan 10', '111 20', 'Stockholm', MARKET],
    ['DHL', 'Coop Södermalm', 'Götgatan 48', '118 26', 'Stockholm', MARKET],
    ['PostNord', 'ICA Nära Linnéplatsen', 'Linnégatan 50', '413 08', 'Göteborg', MARKET],
    ['DHL', 'Servicepoint Nordstan', 'Kungsgatan 40', '411 19', 'Göteborg', SHOP],
    ['PostNord', 'Hemköp Triangeln', 'Södra Förstadsgatan 41', '211 43', 'Malmö', MARKET],
    ['PostNord', 'ICA Kvantum Uppsala', 'Kungsgatan 95', '753 18', 'Uppsala', MARKET],
    ['DHL', 'Paketbox Örebro C', 'Järnvägsgatan 3', '702 10', 'Örebro', LOCKER],
    ['PostNord', 'Coop Umeå Centrum', 'Storgatan 46', '903 26', 'Umeå', MARKET],
    ['PostNord', 'ICA Maxi Luleå', 'Storgatan 12', '972 31', 'Luleå', MARKET],
  ],
  DE: [
    ['DHL', 'DHL Packstation 112', 'Friedrichstraße 95', '10117', 'Berlin', LOCKER],
    ['Hermes', 'Hermes PaketShop Kiosk am Bahnhof', 'Bahnhofstraße 12', '10115', 'Berlin', SHOP],
    ['DHL', 'Postfiliale Mönckebergstraße', 'Mönckebergstraße 7', '20095', 'Hamburg', OFFICE],
    ['DPD', 'DPD Pickup Schreibwaren König', 'Hauptstraße 41', '50674', 'Köln', SHOP],
    ['DHL', 'DHL Packstation 204', 'Zeil 106', '60313', 'Frankfurt am Main', LOCKER],
    ['Hermes', 'Hermes PaketShop Königstraße', 'Königstraße 28', '70173', 'Stuttgart', SHOP],
    ['DHL', 'Postfiliale Leopoldstraße', 'Leopoldstraße 48', '80802', 'München', OFFICE],
    ['DPD', 'DPD Pickup Lotto Toto Hauptbahnhof', 'Bahnhofstraße 4', '90402', 'Nürnberg', SHOP],
    ['DHL', 'DHL Packstation 131', 'Prager Straße 2', '01069', 'Dresden', LOCKER],
    ['Hermes', 'Hermes PaketShop Lindenstraße', 'Lindenstraße 22', '28195', 'Bremen', SHOP],
  ],
  AT: [
    ['Österreichische Post', 'Postfiliale 1010 Wien', 'Fleischmarkt 19', '1010', 'Wien', OFFICE],
    ['Österreichische Post', 'Post Partner Mariahilf', 'Mariahilfer Straße 85', '1060', 'Wien', SHOP],
    ['DPD', 'DPD Pickup Trafik Praterstern', 'Praterstraße 70', '1020', 'Wien', SHOP],
    ['Österreichische Post', 'Abholstation Graz Hauptbahnhof', 'Annenstraße 60', '8020', 'Graz', LOCKER],
    ['GLS', 'GLS PaketShop Landstraße', 'Landstraße 31', '4020', 'Linz', SHOP],
    ['Österreichische Post', 'Postfiliale Salzburg Bahnhof', 'Südtiroler Platz 1', '5020', 'Salzburg', OFFICE],
    ['DPD', 'DPD Pickup Innsbruck Zentrum', 'Museumstraße 8', '6020', 'Innsbruck', SHOP],
    ['Österreichische Post', 'Post Partner Klagenfurt', 'Bahnhofstraße 44', '9020', 'Klagenfurt am Wörthersee', SHOP],
    ['GLS', 'GLS PaketShop Dornbirn', 'Marktstraße 12', '6850', 'Dornbirn', SHOP],
    ['Österreichische Post', 'Abholstation St. Pölten', 'Wiener Straße 5', '3100', 'St. Pölten', LOCKER],
  ],
  US: [
    ['UPS', 'The UPS Store Downtown Boston', '14 Tremont Street', '02108', 'Boston', OFFICE],
    ['UPS', 'UPS Access Point CVS Pharmacy', '235 Main Street', '10001', 'New York', MARKET],
    ['FedEx', 'FedEx OnSite Walgreens', '801 Broad Street', '43215', 'Columbus', MARKET],
    ['UPS', 'The UPS Store Michigan Ave', '333 Michigan Avenue', '60601', 'Chicago', OFFICE],
    ['USPS', 'USPS Post Office Lamar', '510 Lamar Boulevard', '78703', 'Austin', OFFICE],
    ['UPS', 'UPS Access Point Locker Union Station', '1701 Wynkoop Street', '80202', 'Denver', LOCKER],
    ['FedEx', 'FedEx Office Market Street', '1 Market Street', '92101', 'San Diego', OFFICE],
    ['UPS', 'UPS Access Point Walgreens Hawthorne', '3930 Hawthorne Boulevard', '97214', 'Portland', MARKET],
    ['USPS', 'USPS Post Office Pike Street', '301 Pike Street', '98101', 'Seattle', OFFICE],
    ['UPS', 'The UPS Store Nicollet', '811 Nicollet Mall', '55402', 'Minneapolis', OFFICE],
  ],
};

export type PickupPointRow = {
  id: string;
  country: string;
  carrier: string;
  name: string;
  line1: string;
  postalCode: string;
  city: string;
  openingHours: Record<string, string>;
};

export function pickupPointRows(): PickupPointRow[] {
  return Object.entries(POINTS).flatMap(([country, points]) =>
    points.map(([carrier, name, line1, postalCode, city, hours]) => ({
      id: seedId('pp', country, carrier, name),
      country,
      carrier,
      name,
      line1,
      postalCode,
      city,
      openingHours: { ...hours },
    })),
  );
}
