/**
 * Product kinds: what the illustration shows, the category that picks the care text,
 * a noun phrase (used to name the generated benchmark products) and one line of copy,
 * each in English, Swedish and German.
 */
export type Text3 = { en: string; sv: string; de: string };
export type Category = 'kitchen' | 'living' | 'textiles' | 'outdoor' | 'lighting' | 'gift';
export type KindInfo = { category: Category; noun: Text3; line: Text3; care?: Text3 };

const k = (category: Category, noun: Text3, line: Text3, care?: Text3): KindInfo => ({ category, noun, line, care });

const HAND_WASH = { en: 'Wash by hand.', sv: 'Diskas för hand.', de: 'Von Hand spülen.' };
const WOOL_CARE = {
  en: 'Air out often; wash on the wool cycle at 30 °C.',
  sv: 'Vädra ofta; tvätta på ullprogram i 30 °C.',
  de: 'Oft lüften; im Wollwaschgang bei 30 °C waschen.',
};

export const KINDS = {
  mug: k(
    'kitchen',
    { en: 'Ceramic Mug', sv: 'keramikmugg', de: 'Keramikbecher' },
    {
      en: 'A generous everyday mug with a thick wall that keeps coffee warm a little longer.',
      sv: 'En rymlig vardagsmugg med tjock vägg som håller kaffet varmt lite längre.',
      de: 'Ein großzügiger Alltagsbecher mit dicker Wand, der den Kaffee etwas länger warm hält.',
    },
  ),
  espresso: k(
    'kitchen',
    { en: 'Espresso Cups', sv: 'espressokoppar', de: 'Espressotassen' },
    {
      en: 'Small, heavy cups sized for a double shot, with a glaze that feels smooth against the lip.',
      sv: 'Små, tunga koppar för en dubbel espresso, med en glasyr som känns len mot läppen.',
      de: 'Kleine, schwere Tassen für einen doppelten Espresso, mit einer Glasur, die sich glatt an den Lippen anfühlt.',
    },
  ),
  'camp-mug': k(
    'outdoor',
    { en: 'Enamel Mug', sv: 'emaljmugg', de: 'Emaillebecher' },
    {
      en: 'A light enamel mug for the trail, the boat and the cabin porch — it shrugs off knocks and campfires.',
      sv: 'En lätt emaljmugg för leden, båten och stugtrappan — den tål både stötar och lägereld.',
      de: 'Ein leichter Emaillebecher für Wanderweg, Boot und Hüttenveranda — er verträgt Stöße und Lagerfeuer.',
    },
  ),
  dripper: k(
    'kitchen',
    { en: 'Pour-Over Dripper', sv: 'kaffefilterhållare', de: 'Handfilter' },
    {
      en: 'A porcelain pour-over dripper for one to three cups, with ribs that let the coffee bloom evenly.',
      sv: 'En filterhållare i porslin för en till tre koppar, med räfflor som låter kaffet blomma jämnt.',
      de: 'Ein Handfilter aus Porzellan für ein bis drei Tassen, mit Rippen, die den Kaffee gleichmäßig aufblühen lassen.',
    },
  ),
  coffee: k(
    'kitchen',
    { en: 'Coffee Beans', sv: 'kaffebönor', de: 'Kaffeebohnen' },
    {
      en: 'Whole beans roasted medium-light in small batches, with notes of red apple, cocoa and toasted almond.',
      sv: 'Hela bönor, mellanljust rostade i små satser, med toner av rött äpple, kakao och rostad mandel.',
      de: 'Ganze Bohnen, in kleinen Chargen mittelhell geröstet, mit Noten von rotem Apfel, Kakao und gerösteten Mandeln.',
    },
    {
      en: 'Best within three months of roasting; keep airtight.',
      sv: 'Godast inom tre månader från rostning; förvaras lufttätt.',
      de: 'Am besten innerhalb von drei Monaten nach der Röstung; luftdicht aufbewahren.',
    },
  ),
  board: k(
    'kitchen',
    { en: 'Cutting Board', sv: 'skärbräda', de: 'Schneidebrett' },
    {
      en: 'A solid wood board, oiled by hand, that is kind to knife edges and handsome enough to serve on.',
      sv: 'En bräda i massivt trä, handoljad, som är snäll mot knivseggen och snygg nog att servera på.',
      de: 'Ein Brett aus Massivholz, von Hand geölt, schonend zu Messerklingen und schön genug zum Servieren.',
    },
    { en: 'Wash by hand and oil now and then.', sv: 'Diska för hand och olja in då och då.', de: 'Von Hand spülen und ab und zu ölen.' },
  ),
  bowl: k(
    'kitchen',
    { en: 'Serving Bowl', sv: 'serveringsskål', de: 'Servierschüssel' },
    {
      en: 'A wide stoneware bowl for salads, fruit or a Sunday stew, glazed inside and raw on the foot.',
      sv: 'En vid skål i stengods för sallad, frukt eller söndagsgrytan, glaserad inuti och rå på foten.',
      de: 'Eine weite Schüssel aus Steinzeug für Salat, Obst oder den Sonntagseintopf, innen glasiert und am Fuß roh.',
    },
  ),
  plate: k(
    'kitchen',
    { en: 'Dinner Plate', sv: 'middagstallrik', de: 'Speiseteller' },
    {
      en: 'A dinner plate with a low rim that keeps sauces in place, thrown in speckled stoneware.',
      sv: 'En middagstallrik med låg kant som håller såsen på plats, drejad i prickigt stengods.',
      de: 'Ein Speiseteller mit niedrigem Rand, der Soßen an ihrem Platz hält, gedreht aus gesprenkeltem Steinzeug.',
    },
  ),
  kettle: k(
    'kitchen',
    { en: 'Stovetop Kettle', sv: 'vattenkittel', de: 'Wasserkessel' },
    {
      en: 'A stovetop kettle with a slim spout for a steady pour, for gas, electric and induction hobs.',
      sv: 'En vattenkittel med smal pip för en jämn stråle, för gas-, el- och induktionshäll.',
      de: 'Ein Wasserkessel mit schlankem Ausguss für einen ruhigen Strahl, für Gas-, Elektro- und Induktionsherde.',
    },
    HAND_WASH,
  ),
  glass: k(
    'kitchen',
    { en: 'Glass Tumblers', sv: 'dricksglas', de: 'Trinkgläser' },
    {
      en: 'Mouth-blown tumblers with a heavy base, just right for water, juice or a long afternoon fika.',
      sv: 'Munblåsta glas med tung botten, lagom för vatten, juice eller en lång eftermiddagsfika.',
      de: 'Mundgeblasene Gläser mit schwerem Boden, genau richtig für Wasser, Saft oder eine lange Kaffeepause.',
    },
  ),
  bottle: k(
    'outdoor',
    { en: 'Water Bottle', sv: 'vattenflaska', de: 'Trinkflasche' },
    {
      en: 'A double-walled steel bottle that keeps drinks cold for a day and hot for a morning.',
      sv: 'En dubbelväggig stålflaska som håller drycken kall en hel dag och varm en hel förmiddag.',
      de: 'Eine doppelwandige Stahlflasche, die Getränke einen Tag lang kalt und einen Vormittag lang heiß hält.',
    },
  ),
  throw: k(
    'living',
    { en: 'Wool Throw', sv: 'ullpläd', de: 'Wolldecke' },
    {
      en: 'A soft throw woven from lambswool, with knotted fringes and a weight that settles nicely over the knees.',
      sv: 'En mjuk pläd vävd i lammull, med knutna fransar och en tyngd som lägger sig fint över knäna.',
      de: 'Eine weiche Decke aus Lammwolle mit geknoteten Fransen und einem Gewicht, das sich angenehm über die Knie legt.',
    },
    WOOL_CARE,
  ),
  blanket: k(
    'outdoor',
    { en: 'Picnic Blanket', sv: 'picknickfilt', de: 'Picknickdecke' },
    {
      en: 'A checked wool blanket for picnics, boat trips and cool evenings on the jetty.',
      sv: 'En rutig ullfilt för picknick, båtturer och svala kvällar på bryggan.',
      de: 'Eine karierte Wolldecke für Picknicks, Bootsausflüge und kühle Abende am Steg.',
    },
    WOOL_CARE,
  ),
  towel: k(
    'textiles',
    { en: 'Towel', sv: 'handduk', de: 'Handtuch' },
    {
      en: 'A quick-drying towel in a waffle weave that grows softer with every wash.',
      sv: 'En snabbtorkande handduk i våffelväv som blir mjukare för varje tvätt.',
      de: 'Ein schnell trocknendes Handtuch in Waffelbindung, das mit jeder Wäsche weicher wird.',
    },
  ),
  bedding: k(
    'textiles',
    { en: 'Linen Bedding', sv: 'sängkläder i linne', de: 'Leinenbettwäsche' },
    {
      en: 'Stonewashed linen bedding that breathes in summer, warms in winter and never needs ironing.',
      sv: 'Stentvättade sängkläder i linne som andas på sommaren, värmer på vintern och aldrig behöver strykas.',
      de: 'Stonewashed-Bettwäsche aus Leinen, die im Sommer atmet, im Winter wärmt und nie gebügelt werden muss.',
    },
  ),
  cushion: k(
    'living',
    { en: 'Cushion Cover', sv: 'kuddfodral', de: 'Kissenbezug' },
    {
      en: 'A cushion cover in a heavy cotton-linen weave with a hidden zip and neatly piped edges.',
      sv: 'Ett kuddfodral i kraftig väv av bomull och linne med dold dragkedja och prydliga kantband.',
      de: 'Ein Kissenbezug aus kräftigem Baumwoll-Leinen-Gewebe mit verdecktem Reißverschluss und sauberen Paspeln.',
    },
  ),
  vase: k(
    'living',
    { en: 'Ceramic Vase', sv: 'keramikvas', de: 'Keramikvase' },
    {
      en: 'A hand-thrown vase with a narrow neck that holds a single branch or a loose bunch of wildflowers.',
      sv: 'En handdrejad vas med smal hals som bär en ensam kvist eller en lös bukett ängsblommor.',
      de: 'Eine handgedrehte Vase mit schmalem Hals für einen einzelnen Zweig oder einen lockeren Wildblumenstrauß.',
    },
  ),
  candle: k(
    'living',
    { en: 'Scented Candle', sv: 'doftljus', de: 'Duftkerze' },
    {
      en: 'A rapeseed wax candle in a reusable glass, poured by hand, burning clean for about 45 hours.',
      sv: 'Ett ljus av rapsvax i återanvändbart glas, handgjutet, som brinner rent i ungefär 45 timmar.',
      de: 'Eine Kerze aus Rapswachs im wiederverwendbaren Glas, von Hand gegossen, brennt etwa 45 Stunden sauber.',
    },
    {
      en: 'Never leave a burning candle unattended.',
      sv: 'Lämna aldrig ett brinnande ljus utan tillsyn.',
      de: 'Brennende Kerzen nie unbeaufsichtigt lassen.',
    },
  ),
  tapers: k(
    'lighting',
    { en: 'Taper Candles', sv: 'kronljus', de: 'Stabkerzen' },
    {
      en: 'Dripless taper candles dipped in pure beeswax, with a faint scent of honey.',
      sv: 'Droppfria kronljus doppade i rent bivax, med en svag doft av honung.',
      de: 'Tropffreie Stabkerzen, in reines Bienenwachs getaucht, mit einem feinen Duft nach Honig.',
    },
    {
      en: 'Never leave a burning candle unattended.',
      sv: 'Lämna aldrig ett brinnande ljus utan tillsyn.',
      de: 'Brennende Kerzen nie unbeaufsichtigt lassen.',
    },
  ),
  plant: k(
    'living',
    { en: 'Plant Pot', sv: 'blomkruka', de: 'Pflanztopf' },
    {
      en: 'A glazed plant pot with a drainage hole and a matching saucer, for leafy friends big and small.',
      sv: 'En glaserad blomkruka med dräneringshål och matchande fat, för gröna vänner stora som små.',
      de: 'Ein glasierter Pflanztopf mit Abflussloch und passendem Untersetzer, für große und kleine grüne Freunde.',
    },
  ),
  planter: k(
    'outdoor',
    { en: 'Planter Box', sv: 'odlingslåda', de: 'Pflanzkasten' },
    {
      en: 'A planter box in untreated larch for herbs on the balcony or the kitchen windowsill.',
      sv: 'En odlingslåda i obehandlad lärk för kryddor på balkongen eller köksfönstret.',
      de: 'Ein Pflanzkasten aus unbehandelter Lärche für Kräuter auf dem Balkon oder der Küchenfensterbank.',
    },
  ),
  rug: k(
    'living',
    { en: 'Wool Rug', sv: 'ullmatta', de: 'Wollteppich' },
    {
      en: 'A flatwoven wool rug with a quiet geometric pattern, reversible for twice the wear.',
      sv: 'En slätvävd ullmatta med ett stillsamt geometriskt mönster, vändbar för dubbelt så lång livslängd.',
      de: 'Ein flachgewebter Wollteppich mit ruhigem geometrischem Muster, wendbar für doppelte Lebensdauer.',
    },
    {
      en: 'Vacuum regularly and spot clean.',
      sv: 'Dammsug regelbundet och fläckrengör vid behov.',
      de: 'Regelmäßig saugen, Flecken punktuell reinigen.',
    },
  ),
  clock: k(
    'living',
    { en: 'Wall Clock', sv: 'väggklocka', de: 'Wanduhr' },
    {
      en: 'A silent-sweep wall clock with a clear face, so the hours pass without a tick.',
      sv: 'En tyst väggklocka med svepande visare och tydlig urtavla, så att timmarna går utan ett tick.',
      de: 'Eine lautlose Wanduhr mit schleichendem Sekundenzeiger und klarem Zifferblatt — die Stunden vergehen ohne Ticken.',
    },
  ),
  basket: k(
    'living',
    { en: 'Storage Basket', sv: 'förvaringskorg', de: 'Aufbewahrungskorb' },
    {
      en: "A woven seagrass basket with cut-out handles for blankets, toys or the week's firewood.",
      sv: 'En flätad korg i sjögräs med urtagna handtag för filtar, leksaker eller veckans ved.',
      de: 'Ein geflochtener Korb aus Seegras mit Grifflöchern für Decken, Spielzeug oder das Feuerholz der Woche.',
    },
  ),
  tote: k(
    'textiles',
    { en: 'Tote Bag', sv: 'tygkasse', de: 'Tragetasche' },
    {
      en: 'A sturdy tote with long handles and an inside pocket, roomy enough for the Saturday market.',
      sv: 'En stadig kasse med långa handtag och innerficka, rymlig nog för lördagens marknad.',
      de: 'Eine robuste Tasche mit langen Henkeln und Innentasche, geräumig genug für den Samstagsmarkt.',
    },
  ),
  beanie: k(
    'textiles',
    { en: 'Beanie', sv: 'mössa', de: 'Mütze' },
    {
      en: 'A rib-knit beanie in fine merino that keeps ears warm without itching.',
      sv: 'En ribbstickad mössa i fin merinoull som håller öronen varma utan att klia.',
      de: 'Eine Rippstrickmütze aus feiner Merinowolle, die die Ohren wärmt, ohne zu kratzen.',
    },
    WOOL_CARE,
  ),
  scarf: k(
    'textiles',
    { en: 'Wool Scarf', sv: 'ullhalsduk', de: 'Wollschal' },
    {
      en: 'A long scarf woven from brushed wool, generous enough to wrap twice on windy days.',
      sv: 'En lång halsduk vävd i borstad ull, generös nog att linda två varv en blåsig dag.',
      de: 'Ein langer Schal aus gebürsteter Wolle, großzügig genug, um ihn an windigen Tagen zweimal zu wickeln.',
    },
    WOOL_CARE,
  ),
  tshirt: k(
    'textiles',
    { en: 'Cotton Tee', sv: 't-shirt i bomull', de: 'Baumwoll-T-Shirt' },
    {
      en: 'A relaxed tee in heavyweight organic cotton that holds its shape wash after wash.',
      sv: 'En avslappnad t-shirt i kraftig ekologisk bomull som behåller formen tvätt efter tvätt.',
      de: 'Ein lässiges T-Shirt aus schwerer Bio-Baumwolle, das Wäsche für Wäsche seine Form behält.',
    },
  ),
  socks: k(
    'textiles',
    { en: 'Wool Socks', sv: 'ullsockor', de: 'Wollsocken' },
    {
      en: 'Thick knitted socks in a wool blend with a reinforced heel, for boots and cold floors.',
      sv: 'Tjocka stickade sockor i ullblandning med förstärkt häl, för kängor och kalla golv.',
      de: 'Dicke Stricksocken aus Wollmischung mit verstärkter Ferse, für Stiefel und kalte Böden.',
    },
    WOOL_CARE,
  ),
  'down-jacket': k(
    'outdoor',
    { en: 'Down Jacket', sv: 'dunjacka', de: 'Daunenjacke' },
    {
      en: 'A warm, packable down jacket with responsibly sourced fill and a water-repellent shell.',
      sv: 'En varm, packbar dunjacka med ansvarsfullt producerat dun och vattenavvisande ytskikt.',
      de: 'Eine warme, verstaubare Daunenjacke mit verantwortungsvoll gewonnener Füllung und wasserabweisender Außenhülle.',
    },
  ),
  'rain-jacket': k(
    'outdoor',
    { en: 'Rain Jacket', sv: 'regnjacka', de: 'Regenjacke' },
    {
      en: 'A classic rain jacket with welded seams and a roomy hood, made for sideways North Sea rain.',
      sv: 'En klassisk regnjacka med svetsade sömmar och rymlig huva, gjord för västkustens vågräta regn.',
      de: 'Eine klassische Regenjacke mit verschweißten Nähten und weiter Kapuze, gemacht für waagerechten Nordseeregen.',
    },
  ),
  apron: k(
    'textiles',
    { en: 'Apron', sv: 'förkläde', de: 'Schürze' },
    {
      en: 'A full-length apron in heavy cotton canvas with a deep front pocket and long ties.',
      sv: 'Ett helförkläde i kraftig bomullscanvas med djup framficka och långa knytband.',
      de: 'Eine lange Schürze aus kräftigem Baumwoll-Canvas mit tiefer Vordertasche und langen Bändern.',
    },
  ),
  backpack: k(
    'outdoor',
    { en: 'Backpack', sv: 'ryggsäck', de: 'Rucksack' },
    {
      en: 'A water-resistant backpack with a padded laptop sleeve and room for a day in the hills.',
      sv: 'En vattentålig ryggsäck med vadderat datorfack och plats för en dag i fjällen.',
      de: 'Ein wasserabweisender Rucksack mit gepolstertem Laptopfach und Platz für einen Tag in den Bergen.',
    },
  ),
  lantern: k(
    'outdoor',
    { en: 'Storm Lantern', sv: 'stormlykta', de: 'Sturmlaterne' },
    {
      en: 'A storm lantern with a glass chimney that keeps the flame steady on breezy summer nights.',
      sv: 'En stormlykta med glascylinder som håller lågan stilla under blåsiga sommarkvällar.',
      de: 'Eine Sturmlaterne mit Glaszylinder, die die Flamme in windigen Sommernächten ruhig hält.',
    },
  ),
  chair: k(
    'outdoor',
    { en: 'Deck Chair', sv: 'däckstol', de: 'Liegestuhl' },
    {
      en: 'A folding deck chair in oiled beech with a striped cotton sling and three reclining positions.',
      sv: 'En fällbar däckstol i oljad bok med randig bomullsduk och tre lägen.',
      de: 'Ein klappbarer Liegestuhl aus geölter Buche mit gestreiftem Baumwollbezug und drei Liegepositionen.',
    },
  ),
  stringlights: k(
    'lighting',
    { en: 'String Lights', sv: 'ljusslinga', de: 'Lichterkette' },
    {
      en: 'Weatherproof string lights with warm-white LED bulbs for the garden, balcony or terrace.',
      sv: 'Väderbeständig ljusslinga med varmvita LED-lampor för trädgården, balkongen eller terrassen.',
      de: 'Wetterfeste Lichterkette mit warmweißen LED-Birnen für Garten, Balkon oder Terrasse.',
    },
    {
      en: 'Comes with a plug-in transformer and a timer.',
      sv: 'Levereras med nätadapter och timer.',
      de: 'Mit Netzteil und Zeitschaltuhr.',
    },
  ),
  lamp: k(
    'lighting',
    { en: 'Table Lamp', sv: 'bordslampa', de: 'Tischleuchte' },
    {
      en: 'A table lamp with a linen shade that spreads a soft, warm light across the room.',
      sv: 'En bordslampa med skärm i linne som sprider ett mjukt, varmt ljus i rummet.',
      de: 'Eine Tischleuchte mit Leinenschirm, die ein weiches, warmes Licht im Raum verteilt.',
    },
  ),
  pendant: k(
    'lighting',
    { en: 'Pendant Light', sv: 'taklampa', de: 'Pendelleuchte' },
    {
      en: 'A spun-metal pendant that casts a focused pool of light over the dining table.',
      sv: 'En taklampa i driven metall som lägger en samlad ljuscirkel över matbordet.',
      de: 'Eine Pendelleuchte aus gedrücktem Metall, die einen gebündelten Lichtkegel über den Esstisch wirft.',
    },
  ),
  floorlamp: k(
    'lighting',
    { en: 'Floor Lamp', sv: 'golvlampa', de: 'Stehleuchte' },
    {
      en: 'A slender floor lamp on a tripod base, just the right height for a reading corner.',
      sv: 'En smal golvlampa på trebent fot, precis lagom hög för läshörnan.',
      de: 'Eine schlanke Stehleuchte auf Dreibein, genau richtig hoch für die Leseecke.',
    },
  ),
  bulb: k(
    'lighting',
    { en: 'LED Bulb', sv: 'LED-lampa', de: 'LED-Lampe' },
    {
      en: 'A dimmable LED filament bulb with the warm glow of an old-fashioned light bulb at a tenth of the energy.',
      sv: 'En dimbar LED-glödtrådslampa med en gammaldags glödlampas varma sken till en tiondel av energin.',
      de: 'Eine dimmbare LED-Filamentlampe mit dem warmen Schein einer klassischen Glühbirne bei einem Zehntel der Energie.',
    },
    {
      en: 'Fits any E27 socket; 4 W gives the light of 40 W.',
      sv: 'Passar alla E27-socklar; 4 W ger ljus som 40 W.',
      de: 'Passt in jede E27-Fassung; 4 W leuchten wie 40 W.',
    },
  ),
  giftcard: k(
    'gift',
    { en: 'Gift Card', sv: 'presentkort', de: 'Geschenkkarte' },
    {
      en: 'A gift card delivered by email, valid for two years on everything in the shop.',
      sv: 'Ett presentkort som levereras via e-post och gäller i två år på allt i butiken.',
      de: 'Eine Geschenkkarte per E-Mail, zwei Jahre lang gültig für das gesamte Sortiment.',
    },
  ),
} satisfies Record<string, KindInfo>;

export type Kind = keyof typeof KINDS;
export const KIND_NAMES = Object.keys(KINDS) as Kind[];

/** Care text per category, and closing lines rotated over the catalogue. */
export const CARE: Record<Category, Text3> = {
  kitchen: {
    en: 'Dishwasher safe unless noted otherwise.',
    sv: 'Tål maskindisk om inget annat anges.',
    de: 'Spülmaschinenfest, sofern nicht anders angegeben.',
  },
  living: { en: 'Wipe clean with a damp cloth.', sv: 'Torka av med en fuktig trasa.', de: 'Mit einem feuchten Tuch abwischen.' },
  textiles: {
    en: 'Machine wash at 40 °C and dry flat.',
    sv: 'Maskintvätt i 40 °C och torka plant.',
    de: 'Maschinenwäsche bei 40 °C, liegend trocknen.',
  },
  outdoor: {
    en: 'Made to be used outdoors, all year round.',
    sv: 'Gjord för att användas utomhus, året runt.',
    de: 'Gemacht für draußen, das ganze Jahr über.',
  },
  lighting: { en: 'Supplied with a 2 m textile cord.', sv: 'Levereras med 2 m textilsladd.', de: 'Geliefert mit 2 m Textilkabel.' },
  gift: {
    en: 'The recipient chooses what they love most.',
    sv: 'Mottagaren väljer själv det hon eller han gillar mest.',
    de: 'Die Beschenkten wählen selbst, was ihnen am besten gefällt.',
  },
};

export const CLOSINGS: readonly Text3[] = [
  {
    en: 'Designed in Sweden and made in small batches.',
    sv: 'Formgiven i Sverige och tillverkad i små serier.',
    de: 'In Schweden entworfen und in kleinen Serien gefertigt.',
  },
  {
    en: 'Made to last for years, not seasons.',
    sv: 'Gjord för att hålla i år, inte säsonger.',
    de: 'Gemacht für Jahre, nicht für eine Saison.',
  },
  { en: 'Free returns within 30 days.', sv: 'Fri retur inom 30 dagar.', de: 'Kostenlose Rücksendung innerhalb von 30 Tagen.' },
  { en: 'Every piece is slightly unique.', sv: 'Varje exemplar är en aning unikt.', de: 'Jedes Stück ist ein wenig einzigartig.' },
];
