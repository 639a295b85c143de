import sys
sys.dont_write_bytecode = True
import json, random, re, os, collections
sys.path.insert(0, os.path.dirname(__file__))
import atk_en1, atk_en2, atk_en3, atk_en4, atk_ml, atk_gen, neg1, neg2, neg3, neg_ml, long_bank1, long_bank2, long_bank3, carriers_bank, payloads
OUT = sys.argv[1]
R = random.Random(1122)
def norm(t): return re.sub(r"\s+", " ", t).strip().casefold()

def write(path, rows):
    seen = {}
    for r in rows:
        k = norm(r["text"])
        assert k not in seen, ("dup", path, r["id"], seen[k])
        seen[k] = r["id"]
        assert len(r["text"]) <= 20000
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        for r in rows: f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(path, len(rows))

# ---------------- attacks ----------------
A = []
def add(tech, texts, lang="en", **extra):
    n = sum(1 for r in A if r["technique"] == tech) 
    for t in texts:
        n += 1
        row = {"id": f"atk-{tech.replace('_','-')}-{n:03d}", "text": t, "label": 1, "technique": tech, "lang": lang}
        row.update(extra)
        A.append(row)
add("instruction_override", atk_en1.OVERRIDE)
add("roleplay_persona", atk_en1.ROLEPLAY)
add("fake_system_message", atk_en1.FAKE_SYSTEM)
add("delimiter_markup", atk_en1.DELIMITER)
add("prompt_extraction", atk_en2.EXTRACTION)
add("payload_splitting", atk_en2.PAYLOAD_SPLIT)
add("translation_trick", atk_en2.TRANSLATION_TRICK)
add("short_hijack", atk_en3.SHORT_HIJACK)
add("goal_hijack", atk_en3.GOAL_HIJACK)
add("indirect_injection", atk_en3.INDIRECT)
add("refusal_suppression", atk_en4.REFUSAL_SUPPRESSION)
add("fiction_wrapper", atk_en4.FICTION_WRAPPER)
for text, enc in atk_gen.encodings(): add("encoding", [text], encoding=enc)
add("many_shot", atk_gen.many_shot())
add("context_flooding", atk_gen.flooding())
for lang, items in atk_ml.ML.items():
    for sub, t in items:
        n = sum(1 for r in A if r["technique"] == "multilingual") + 1
        A.append({"id": f"atk-multilingual-{lang}-{n:03d}", "text": t, "label": 1, "technique": "multilingual", "subtechnique": sub, "lang": lang})
write(os.path.join(OUT, "..", "models", "vector", "known-injections.jsonl"), A)  # beside the index built from it

# ---------------- hard negatives ----------------
N = []
def addn(kind, texts, lang="en"):
    n = sum(1 for r in N if r["kind"] == kind)
    for t in texts:
        n += 1
        N.append({"id": f"neg-{kind.replace('_','-')}-{n:03d}", "text": t, "label": 0, "kind": kind, "lang": lang})
addn("roleplay", neg1.ROLEPLAY)
addn("fiction_hypothetical", neg1.FICTION)
addn("security_question", neg2.SECURITY)
addn("trigger_word", neg2.TRIGGER)
addn("prompt_engineering", neg3.PROMPT_ENG)
addn("translation_request", neg3.TRANSLATION)
addn("encoding_question", neg3.ENCODING_Q)
addn("code_snippet", neg3.CODE)
addn("short_directive", neg3.SHORT_DIRECTIVE)
for lang, items in neg_ml.ML.items(): addn("multilingual", items, lang)
write(f"{OUT}/benign/hard-negatives.jsonl", N)

# ---------------- slot values ----------------
S = dict(
name=["Priya Raman","Tomasz Nowak","Aisha Bello","Lucas Martin","Mei Chen","Jonas Berg","Sofia Russo","Daniel Okafor","Hannah Weiss","Mateo García","Elif Yılmaz","Kenji Sato","Grace O'Neill","Ravi Kapoor","Nora Lindqvist","Samuel Adeyemi"],
colleague=["Marta","Ben","Chloe","Arjun","Fatima","Oliver","Yuki","Pedro","Ingrid","Kwame","Laura","Hugo","Zara","Felix"],
company=["Northwind Supplies","Bluefin Analytics","Copperleaf Ltd","Harbour & Vale","Lumen Tools","Pinecrest Foods","Quarry Labs","Atlas Freight"],
product=["AeroBrew 300 coffee maker","TrailLite headlamp","QuietAir purifier","Stride running watch","HomeHub router","CleanSweep robot vacuum","PageTurner e-reader","ChefPro stand mixer","SnapDesk monitor arm","FlowPen tablet stylus"],
project=["Atlas","Orion","Bramble","Lighthouse","Pathfinder","Kestrel","Mosaic","Tidewater"],
day=["Monday","Tuesday","Wednesday","Thursday","Friday"],
date=["12 March","3 April","21 May","9 June","14 July","2 September","18 October","27 November"],
city=["Lisbon","Leeds","Lyon","Kraków","Porto","Utrecht","Bologna","Valencia","Gothenburg","Dublin"],
team=["platform","data","mobile","growth","support","finance","design"],
amount=["€4,000","$2,500","£3,200","€11,000","$900"],
topic=["remote work and cities","why public libraries matter","learning a language as an adult","the real cost of fast fashion","AI in the classroom","what gardening teaches about patience"],
isodate=["2026-03-12","2026-04-03","2026-05-21","2026-06-09","2026-07-14","2026-09-02"],
month=["January","March","April","June","September","October"],
)
def fill(t):
    d = {k: R.choice(v) for k, v in S.items()}
    d["name2"] = R.choice(S["name"]); d["num"] = str(R.randint(10000, 99999))
    return re.sub(r"\{(\w+)\}", lambda m: d.get(m.group(1), m.group(0)), t)

# ---------------- long documents ----------------
L = []; seen = set()
COUNTS = {"email": 22, "meeting_notes": 22, "product_review": 22, "support_ticket": 20, "essay": 20, "code_review": 22, "document_to_summarise": 24, "multi_paragraph_request": 20, "roleplay_setup": 14, "security_document": 18}
for kind, var in long_bank3.TYPES.items():
    bank = None
    for mod in (long_bank1, long_bank2, long_bank3):
        if hasattr(mod, var): bank = getattr(mod, var)
    made = 0; tries = 0
    body = bank["body"]
    while made < COUNTS[kind] and tries < 20000:
        tries += 1
        if "groups" in bank:
            gi = R.sample(range(len(bank["groups"])), R.randint(1, bank.get("max_groups", 1)))
            used = set(); chunks = []
            for g in gi:
                paras = [i for i in bank["groups"][g] if i not in used]
                if len(paras) > 3 and R.random() < 0.5:
                    paras = sorted(R.sample(paras, len(paras) - 1))
                used.update(paras)
                if paras: chunks.append("\n\n".join(body[i] for i in paras))
            for i in bank.get("tail", []):
                if R.random() < 0.5: chunks[-1] += "\n\n" + body[i]
            if len(chunks) > 1:
                tr = bank.get("transition", ["\n\n"])
                text_body = chunks[0]
                for c in chunks[1:]: text_body += R.choice(tr) + c
            else:
                text_body = chunks[0]
            opener = R.choice(bank["group_open"][gi[0]]) if "group_open" in bank else R.choice(bank["open"])
        else:
            k = R.randint(3, len(body)) if R.random() < 0.35 else R.randint(3, min(6, len(body)))
            idx = sorted(R.sample(range(len(body)), k))
            text_body = "\n\n".join(body[i] for i in idx)
            opener = R.choice(bank["open"])
        parts = [opener, text_body, R.choice(bank["close"])]
        text = fill("\n\n".join(p for p in parts if p))
        w = len(text.split())
        if not (150 <= w <= 800): continue
        key = norm(text)
        if key in seen: continue
        seen.add(key); made += 1
        L.append({"id": f"long-{kind.replace('_','-')}-{made:03d}", "text": text, "label": 0, "kind": kind, "lang": "en", "words": w})
    assert made == COUNTS[kind], (kind, made)
write(f"{OUT}/benign/long-documents.jsonl", L)

# ---------------- carriers ----------------
C = []; seenc = set()
for kind, bank in carriers_bank.C.items():
    made = 0
    while made < 15:
        k = R.randint(3, 6)
        idx = sorted(R.sample(range(len(bank["body"])), k))
        o = R.randrange(len(bank["open"])); c = R.randrange(len(bank["close"]))
        key = (kind, tuple(idx), o)
        if key in seenc: continue
        seenc.add(key); made += 1
        sep = "\n" if kind in ("code_file", "tool_output", "calendar", "chat_log") else " "
        body = sep.join(bank["body"][i] for i in idx)
        text = fill("\n".join(x for x in [bank["open"][o], body, bank["close"][c]] if x))
        C.append({"id": f"car-{kind.replace('_','-')}-{made:03d}", "text": text, "label": 0, "kind": kind, "lang": "en"})
write(f"{OUT}/attacks/indirect-carriers.jsonl", C)

# ---------------- payloads ----------------
def lang_of(t):
    if re.search(r"[\u0400-\u04FF]", t): return "ru"
    if re.search(r"[\u3040-\u30FF]", t): return "ja"
    if re.search(r"[\uAC00-\uD7AF]", t): return "ko"
    if re.search(r"[\u4E00-\u9FFF]", t): return "zh"
    if re.search(r"[\u0600-\u06FF]", t): return "ar"
    if re.search(r"[\u0900-\u097F]", t): return "hi"
    for pat, l in [("Chatverlauf","de"),("Assistant IA","fr"),("Asistente:","es"),("Assistente IA","it"),("Assistente de IA","pt"),("AI-assistent","nl"),("Asystencie","pl"),("Yapay zeka","tr")]:
        if pat in t: return l
    return "en"
P = []; cnt = collections.Counter()
for tech, t in payloads.P:
    cnt[tech] += 1
    P.append({"id": f"pay-{tech.replace('_','-')}-{cnt[tech]:03d}", "text": t, "label": 1, "technique": tech, "lang": lang_of(t)})
write(f"{OUT}/attacks/indirect-payloads.jsonl", P)

# cross-file duplicate check
allk = collections.Counter(norm(r["text"]) for rows in (A, N, L, C, P) for r in rows)
d = [k for k, v in allk.items() if v > 1]
print("cross-file dups:", len(d), d[:3])
