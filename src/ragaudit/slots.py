"""Slots of a sentence that a careful reader compares between a claim and its evidence.

Quantities (a number with its unit, in base units so that 72 hours = 3 days and 52,000 MWh =
52 GWh), calendar dates (day and month, with the year when given), times of day, names, and the
cues that change what a sentence asserts: negation, quantifiers, modality (may/will) and causal
links. :mod:`ragaudit.matching` reads matches and mismatches off two slot sets; the verifier turns
them into verdicts. Every pattern here is linear-time (no nested or overlapping quantifiers).
"""

from __future__ import annotations

import re
from dataclasses import replace

from ragaudit import _blanks as blanks
from ragaudit import _slot_data as lex
from ragaudit._dates import read_date
from ragaudit._labels import names_something, numbers_clause
from ragaudit._number_words import (
    BELOW_ZERO_RE,
    SIGNS,
    counts_times,
    join_durations,
    minus_in_words,
    near_number,
    number_value,
    period_of,
    rate_of,
    share_range_units,
    word_number,
    written_below_zero,
)
from ragaudit._polarity import read_polarity
from ragaudit._slot_data import Date, Quantity, Slots
from ragaudit._text import LIGHT_WORDS, STOPWORDS, stem
from ragaudit._textcache import text_cache
from ragaudit._units import fraction_of_unit, unit_at

__all__ = ["MAX_CHARS", "Date", "Quantity", "Slots", "extract"]

# One token: a clock time, a number (with thousands separators and decimals, an optional
# currency sign before and % after), or a word. Alternatives never overlap at one position.
_TOKEN_RE = re.compile(
    r"(?P<iso>(?<![\d-])(?:1[5-9]|20)\d\d-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?![\d-]))"
    r"|(?P<duration>\d{1,2}:\d{2}:\d{2}(?![\d:])|(?:2[5-9]|[3-9]\d):\d{2}(?![\d:]))"
    r"|(?P<clock>\d{1,2}:\d{2}(?:\s?[ap]\.?m\.?)?(?!\d)|\d{1,2}\.\d{2}\s?[ap]\.?m\.?)"
    r"|(?P<ampm>\d{1,2}\s?[ap]\.?m\.?(?![a-z]))"
    r"|(?P<num>[£$€]?\d{1,3}(?:,\d{3})+(?:\.\d+)?|[£$€]?\d+(?:\.\d+)?)"
    r"|(?P<word>[^\W\d_]+(?:[-'’][^\W\d_]+)*)"
    r"|(?P<sym>[%£$€~°/²±])",
    re.IGNORECASE,
)


_FIRST_LAST = frozenset(
    ["first", "last", "next", "following", "final", "initial", "opening", "coming", "every", "each"]
)
"""Words before a bare 'fortnight' that make it a length ("the first fortnight"; not "closed this fortnight")."""
_DENIERS = frozenset({"not", "never", "than", "no", "isn't", "wasn't", "aren't", "hasn't", "haven't", "cannot"})
MAX_CHARS = 20_000
"""Characters of one text read for slots (units and claims are sentences; the rest is bounded work)."""


@text_cache(max_chars=4_000_000, max_entries=20_000)
def extract(text: str) -> Slots:
    """The slots of ``text`` (cached, within 4,000,000 characters of texts: sources are read once per batch)."""
    slots = Slots()
    tokens = _tokens(text[:MAX_CHARS])
    # Phrases are looked for in the whole text, with long runs of spaces cut short: no phrase holds
    # one, so the answer is the same and a mostly blank source costs what its words cost.
    lowered = blanks.compact(text).lower()
    words = [t[1].lower() for t in tokens if t[0] == "word"]
    slots.stems = {stem(w) for w in words if w not in STOPWORDS and w not in LIGHT_WORDS}
    slots.unknown = any(p in lowered for p in lex.UNKNOWN_PHRASES)
    slots.aggregates = any(w in lex.AGGREGATION for w in words)
    # "May" written with a capital inside a sentence is the month ("starts in May"), not a hedge.
    month = [t[1] == "May" and text[max(0, t[2] - 20) : t[2]].rstrip()[-1:] not in ("", *'.!?:;"“(') for t in tokens]
    slots.hedge_word = any(t[1].lower() in lex.HEDGES and not m for t, m in zip(tokens, month, strict=True))
    slots.hedged = slots.hedge_word or "up to" in lowered
    # "not proven", "rather than something proven", "never confirmed": a certainty denied is a hedge, not a claim.
    slots.certain = any(w in lex.CERTAIN and not _DENIERS & set(words[max(0, i - 3) : i]) for i, w in enumerate(words))
    plain = lex.causal_plain(lowered)
    why = lex.CAUSAL_WHY_RE.search(lowered) is not None  # read before the idioms: "so that's why" gives a reason
    slots.causal = why or any(w in lex.CAUSAL for w in words) or lex.CAUSAL_PHRASE_RE.search(plain) is not None
    read_polarity(text[:MAX_CHARS], tokens, slots)
    slots.question = text.rstrip().endswith("?")
    _read_names(text, tokens, slots)
    _read_numbers(text, tokens, slots)
    slots.quantities = share_range_units(
        text,
        join_durations(
            text,
            [
                replace(q, text=text[q.start : q.end], label=q.label or numbers_clause(text, q))
                for q in slots.quantities
            ],
        ),
    )
    return slots


def _tokens(text: str) -> list[tuple[str, str, int, int]]:
    """(kind, text, start, end) of each token; runs of spaces (a source's blanked passages) skipped."""
    return [(m.lastgroup or "", m.group(), m.start(), m.end()) for m in blanks.finditer(_TOKEN_RE, text)]


_CODE_SUFFIX_RE = re.compile(r"-\d{1,6}[A-Za-z]?\b")
_OPENERS = lex.CUES["addressing_verbs"]  # "Ask Reception": whom an instruction sends the reader to


def _read_names(text: str, tokens: list[tuple[str, str, int, int]], slots: Slots) -> None:
    run: list[tuple[str, int, int]] = []

    def flush() -> None:
        if run:
            name = " ".join(r[0] for r in run).removesuffix("'s").removesuffix("’s")
            # A lone short word ("Rep", "Dr") is a title or abbreviation; acronyms are kept.
            if len(run) > 1 or len(name) >= 4 or name.isupper():
                slots.names[name.lower()] = text[run[0][1] : run[-1][2]]
        run.clear()

    for i, (kind, raw, start, end) in enumerate(tokens):
        before = text[max(0, start - 2) : start].strip()
        initial = i == 0 or before[-1:] in (".", "!", "?", ":", "\n", "•", "-", "*", '"', "“")
        lower = raw.lower()
        capital = (
            kind == "word" and raw[:1].isupper() and lower not in lex.MONTHS and lower not in lex.WEEKDAYS
        ) and lower not in lex.UNITS
        if run and text[run[-1][2] : start].strip():
            flush()  # "Buffalo, New York": punctuation ends a name
        quantifier = lower in lex.QUANTIFIER_CLASS  # "Every Kellerby branch": "Every" starts no name
        if (
            capital
            and lower not in STOPWORDS
            and lower not in lex.NEGATIONS
            and lower not in LIGHT_WORDS
            and not quantifier
        ):
            nxt = tokens[i + 1] if i + 1 < len(tokens) else None
            joined = nxt is not None and nxt[1][:1].isupper() and not text[end : nxt[2]].strip()
            code = _CODE_SUFFIX_RE.match(text, end) if raw.isupper() else None
            if code:
                # "R-2", "C-1", "TF-540": a code is a name, whatever the sentence position.
                run.append((raw + code.group(), start, code.end()))
                continue
            if initial and not run and (not joined or lower in lex.WORD_NUMBERS or lower in _OPENERS):
                # A capitalised first word alone ("However", "Overall", "Three") or an instruction's verb ("Ask
                # Reception") starts a sentence.
                flush()
                continue
            run.append((raw, start, end))
        else:
            flush()
    flush()


_FRACTIONS = frozenset(
    {
        "half",
        "quarter",
        "three-quarters",
        "three-quarter",
        "two-thirds",
        "two-third",
        "one-third",
        "one-quarter",
        "one-half",
    }
)
_PER = ("per", "a", "an")
_TIME_PREPOSITIONS = frozenset({"at", "from", "until", "till", "by", "before", "after", "to", "around", "about"})
_DAY_PART_RE = re.compile(r"\s++(?:at\s++night|in\s++the\s++(evening|afternoon|morning))\b", re.IGNORECASE)
_RATE_QUALIFIER_RE = re.compile(f"(?i){lex.RATE_QUALIFIERS}")
_AFTER_A_SECOND = ("or", "and", "of", "to", "later", "longer", "earlier", "before", "after", "per", "each")
"""Words after "a second" that keep it a length of time ("a second or two"), not the ordinal."""
_COMPOUND = {"length": "speed", "data": "data_rate", "volume": "flow"}
"""Dimensions that, per second, minute or hour, make another ("18 nautical miles an hour" is 18 knots;
"5 GB a month" stays an allowance)."""


def _read_numbers(text: str, tokens: list[tuple[str, str, int, int]], slots: Slots) -> None:
    i = 0
    n = len(tokens)
    while i < n:
        kind, raw, start, end = tokens[i]
        lower = raw.lower()
        if kind in ("clock", "ampm"):
            m = re.match(r"(\d{1,2})(?:[:.](\d{2}))?\s?([ap])?", lower)
            if m:
                hour, minute = int(m[1]), int(m[2] or 0)
                if m[3] == "p" and hour < 12:
                    hour += 12
                if m[3] == "a" and hour == 12:
                    hour = 0
                slots.times.add(hour * 60 + minute)
            i += 1
            continue
        timed = i > 0 and tokens[i - 1][1].lower() in _TIME_PREPOSITIONS  # "at 11 at night", not "4 at night"
        day_part = (
            _DAY_PART_RE.match(text, end)
            if timed and kind == "num" and len(raw) <= 2 and raw.isdecimal() and 1 <= int(raw) <= 12
            else None
        )
        if day_part:
            # "11 at night" is 23:00, "8 in the morning" 08:00 ("at night" before 6 is the small hours).
            hour = int(raw) % 12 + (
                12 if day_part[1] in ("evening", "afternoon") or (day_part[1] is None and int(raw) >= 6) else 0
            )
            slots.times.add(hour % 24 * 60)
            while i < n and tokens[i][2] < day_part.end():
                i += 1
            continue
        if kind == "iso":  # "2025-10-14" in a record or a table
            year, month, day = (int(x) for x in raw.split("-"))
            slots.dates.append(Date(day, month, year, start, end, ""))
            # Its year and day as figures too, as "14 October 2025" gives them.
            slots.quantities.append(Quantity(float(year), float(year), None, False, start, start + 4, raw[:4]))
            slots.quantities.append(Quantity(float(day), float(day), None, False, end - 2, end, raw[-2:]))
            i += 1
            continue
        if kind == "duration":
            # "2:07:45" (h:mm:ss) or "37:56" (mm:ss): a length of time, never a clock time.
            parts = [int(x) for x in raw.split(":")]
            seconds = float(sum(x * 60**k for k, x in enumerate(reversed(parts))))
            slots.quantities.append(Quantity(seconds, seconds, "time", False, start, end, ""))
            i += 1
            continue
        if lower in ("half", "quarter") and i + 2 < n and tokens[i + 1][1].lower() in ("past", "to"):
            # "half past one": 1:30, morning or afternoon (both kept; a span picks the one that fits).
            hour_token = tokens[i + 2]
            said = word_number(hour_token[1]) if hour_token[0] == "word" else None
            if hour_token[0] == "num" and hour_token[1].isdecimal():
                said = float(hour_token[1])
            if said is not None and 1 <= said <= 12 and said.is_integer():
                minutes = 30 if lower == "half" else (15 if tokens[i + 1][1].lower() == "past" else -15)
                for h in (int(said) % 12, int(said) % 12 + 12):
                    slots.times.add((h * 60 + minutes) % 1440)
                i += 3
                continue
        value: float | None = None
        currency = None
        below_zero = False
        merged = 0
        if kind == "num":
            value = number_value(raw)
            currency = raw[0] if raw[0] in "£$€" else None
            if i > 0 and tokens[i - 1][1] in ("£", "$", "€") and tokens[i - 1][3] == start:
                currency = tokens[i - 1][1]
            below_zero = written_below_zero(text, start, tokens, i)
            if value is not None and minus_in_words(tokens, i):
                value = -value
        elif kind == "word":
            # "below zero" places a temperature (read with it), it states no figure of its own.
            value = None if lower == "zero" and i > 0 and tokens[i - 1][1].lower() == "below" else word_number(raw)
            following = tokens[i + 1][1].lower() if i + 1 < n else ""
            if f"{lower}-{following}" in _FRACTIONS and fraction_of_unit(tokens, i + 2):
                # "three quarters of an hour" as "three-quarters of an hour": one fraction of a unit, read as one
                # word ("one third of the toilets" stays a count and an ordinal, as it was read before).
                lower, value, merged = f"{lower}-{following}", word_number(f"{lower}-{following}"), 1
            hyphen_unit = None
            if value is None and "-" in lower:
                head, _, tail = lower.partition("-")
                if head in lex.WORD_NUMBERS and (tail in lex.UNITS or tail.rstrip("s") in lex.UNITS):
                    value, hyphen_unit = float(lex.WORD_NUMBERS[head]), tail if tail in lex.UNITS else tail.rstrip("s")
            if lower == "one" and i and tokens[i - 1][1].lower() in lex.PRONOUN_ONE_BEFORE:
                value = None  # "the one to check", "which one": a pronoun, not a count
            if lower == "once" and not counts_times(tokens, i):
                value = None  # "at once", "once granted", "Once an award comes through": not a count
            if lower == "half":
                nxt_word = tokens[i + 1][1].lower() if i + 1 < n else ""
                prv_word = tokens[i - 1][1].lower() if i else ""
                if nxt_word not in ("a", "an", "of", "the", "its", "their") and prv_word not in ("a", "and", "one"):
                    value = None
            if lower in ("a", "an", "another") and (i == 0 or tokens[i - 1][1].lower() not in _FRACTIONS):
                # "an hour", "a day", "another week", "a further week": a unit with an article counts as one.
                further = i + 1 < n and tokens[i + 1][1].lower() in lex.UNIT_MODIFIERS
                article_unit, _ = unit_at(tokens, i + 1 + further)
                after_unit = tokens[i + 2][1].lower() if i + 2 < n and tokens[i + 2][0] == "word" else ""
                ordinal = article_unit == "second" and after_unit not in ("", *_AFTER_A_SECOND)
                # "a mile and a half": any unit with an article counts as one before a fraction of it.
                fraction = [t[1].lower() for t in tokens[i + 2 : i + 5]] in (
                    ["and", "a", "half"],
                    ["and", "a", "quarter"],
                )
                if (
                    article_unit
                    and (lex.UNITS[article_unit][0] == "time" or fraction)
                    and not ordinal
                    and not rate_of(text, slots.quantities, start)
                ):
                    value = 1.0  # (not "a second sample", where "second" counts the samples)
        if value is None and kind == "word" and lower == "fortnight" and i and tokens[i - 1][1].lower() in _FIRST_LAST:
            # "for the first fortnight": the word is a length itself, two weeks, with no count before it.
            slots.quantities.append(Quantity(lex.UNITS[lower][1], 1.0, "time", False, start, end, raw))
            i += 1
            continue
        if value is None and kind == "word" and lower in lex.ORDINALS and i + 1 < n:
            period = period_of(tokens, i, i + 1, 0.0)
            if period is not None:
                slots.quantities.append(Quantity(period, period, "period", True, start, tokens[i + 1][3], raw))
                i += 2
                continue
        if value is None and kind == "word" and lower in lex.FREQUENCIES:
            # "hourly" is once an hour.
            slots.quantities.append(
                Quantity(1 / lex.UNITS[lex.FREQUENCIES[lower]][1], 1.0, "rate/time", False, start, end, "")
            )
            i += 1
            continue
        if value is None:
            if kind == "word" and lower in lex.MONTHS and not (lower == "may" and not near_number(tokens, i)):
                read_date(tokens, i, slots)
            i += 1
            continue
        j = i + 1 + merged
        if j < n and tokens[j][0] == "word" and tokens[j][3] - tokens[j][2] <= 8:
            scale_word = tokens[j][1].lower()
            if scale_word in lex.SCALES:
                value *= lex.SCALES[scale_word]
                j += 1
            elif currency and scale_word in lex.MONEY_SCALES:
                value *= lex.MONEY_SCALES[scale_word]
                j += 1
        if kind == "num" and 1500 <= value <= 2100 and float(value).is_integer() and currency is None:
            slots.years.add(int(value))
        if (
            j + 3 < n
            and lower not in _FRACTIONS
            and [t[1].lower() for t in tokens[j : j + 2]] == ["and", "a"]
            and tokens[j + 2][1].lower() in ("half", "quarter")
            and unit_at(tokens, j + 3)[0]
        ):
            value += 0.5 if tokens[j + 2][1].lower() == "half" else 0.25  # "four and a half hours"
            j += 3
        period = period_of(tokens, i, j, value)
        if period is not None:
            # "the 1850s", "the 1400s", "the 15th century": a span of years, not seconds.
            last_token = j + 1 if tokens[j][1].lower() in ("st", "nd", "rd", "th") else j
            slots.quantities.append(Quantity(period, period, "period", True, start, tokens[last_token][3], raw))
            i = last_token + 1
            continue
        unit, width = unit_at(tokens, j)
        if unit is None and j + 1 < n and tokens[j][1].lower() in lex.UNIT_MODIFIERS:
            unit, width = unit_at(tokens, j + 1)  # "10 further days" counts days
            width += 1 if unit else 0
        if kind == "word" and hyphen_unit:
            unit, width = hyphen_unit, 0
        if unit is None and j < n and tokens[j][1].lower() in ("of", "a", "an", "per") and j + 1 < n:
            # "half of an hour", "an hour and a half" is read from the unit before.
            # "a quarter of an inch", "half a litre": the fraction of the unit after it.
            skip = 2 if j + 2 < n and tokens[j + 1][1].lower() in ("a", "an") else 1
            nxt, w2 = unit_at(tokens, j + skip)
            if nxt and lower in _FRACTIONS and not nxt.startswith("/"):
                unit, width = nxt, w2 + skip
        if unit is None and j + 1 < n and tokens[j][1].lower() in ("per", "a", "an", "each", "every"):
            per_unit, per_width = unit_at(tokens, j + 1)
            if per_unit is None and j + 2 < n and _RATE_QUALIFIER_RE.fullmatch(tokens[j + 1][1]):
                # "£20 per additional day", "£9 per engine hour": still a rate per that period.
                per_unit, per_width = unit_at(tokens, j + 2)
                per_width += 1
            if per_unit and lex.UNITS[per_unit][0] == "time":
                unit, width = f"/{per_unit}", per_width + 1
        elif (
            unit is None
            and j + 2 < n
            and tokens[j][0] == "word"
            and tokens[j + 1][1].lower() in ("per", "a", "an", "each", "every")
        ):
            per_unit, per_width = unit_at(tokens, j + 2)
            if per_unit and lex.UNITS[per_unit][0] == "time":
                unit, width = f"/{per_unit}", per_width + 2
        if unit == "times" and j + 2 < n and tokens[j + 1][1].lower() in ("per", "a", "an", "each", "every"):
            per_unit, per_width = unit_at(tokens, j + 2)  # "three times an hour" is a rate
            if per_unit and lex.UNITS[per_unit][0] == "time":
                unit, width = f"/{per_unit}", per_width + 2
        per_time: float | None = None
        if unit and not unit.startswith("/") and lex.UNITS[unit][0] in _COMPOUND:
            k = j + width
            if k + 1 < n and tokens[k][1].lower() in _PER:
                over, over_width = unit_at(tokens, k + 1)
                if over and not over.startswith("/") and lex.UNITS[over][0] == "time" and lex.UNITS[over][1] <= 3600:
                    per_time, width = lex.UNITS[over][1], width + 1 + over_width
        dimension = None
        base = value
        if per_time is not None and unit:
            dimension = _COMPOUND[lex.UNITS[unit][0]]
            # bytes are counted in bits in a data rate
            base = value * lex.UNITS[unit][1] * (8 if dimension == "data_rate" else 1) / per_time
        elif currency:
            dimension, factor = lex.UNITS[currency]
            base = value * factor
        elif unit and unit.startswith("/"):
            dimension = f"rate/{lex.UNITS[unit[1:]][0]}"
            base = value / lex.UNITS[unit[1:]][1]
        elif unit:
            dimension, factor = lex.UNITS[unit]
            if dimension == "temperature" and BELOW_ZERO_RE.match(text, tokens[min(n - 1, j + width - 1)][3]):
                below_zero, value = False, -value  # "20 °C below zero", the sign in words
            if below_zero and dimension == "temperature":
                # A sign is read on a temperature only, where "−4 °F" is −20 °C; a signed change elsewhere ("−20%")
                # is put in words by a faithful answer ("a 20% cut"), so its size is what is compared.
                value = -value
                start = start - 1 if text[start - 1] in SIGNS else start  # the sign is part of the figure
            base = value * factor + lex.UNIT_OFFSETS.get(unit, 0.0)
        if (
            kind == "word"
            and lower in ("half", "quarter")
            and unit is None
            and i >= 2
            and tokens[i - 2][1].lower() == "and"
        ):
            # "an hour and a half", "a mile and a quarter": the quantity right before grows by that part of its unit.
            prev_q = slots.quantities[-1] if slots.quantities else None
            if prev_q and prev_q.dimension and prev_q.raw and tokens[i - 2][2] - prev_q.end <= 1:
                part = 0.5 if lower == "half" else 0.25
                factor = prev_q.value / prev_q.raw
                slots.quantities[-1] = Quantity(
                    prev_q.value + part * factor,
                    prev_q.raw + part,
                    prev_q.dimension,
                    prev_q.approx,
                    prev_q.start,
                    end,
                    prev_q.text,
                )
                i += 1
                continue
        # "About £187.55" hedges a sum worked out to the penny: it is read as written, not as within a tenth.
        fine = kind == "num" and len(raw.partition(".")[2]) >= 2
        approx = not fine and any(t[1].lower() in lex.APPROX for t in tokens[max(0, i - 3) : i])
        last = tokens[min(n - 1, j + width - 1)] if width else tokens[j - 1]
        if dimension is None and i and tokens[i - 1][1].lower() in lex.REFERENCES:
            i = j + width  # "Passage 2", "source 3": which text, not a figure
            continue
        after = j + width if width else j
        noun = stem(tokens[after][1].lower()) if dimension is None and after < n and tokens[after][0] == "word" else ""
        if noun:
            slots.nominal.add(noun)
        label = dimension is None and names_something(tokens, i, slots.quantities)
        slots.quantities.append(Quantity(base, value, dimension, approx, start, last[3], raw, noun, label))
        if kind == "num" and value.is_integer() and 1 <= value <= 31 and j < n and tokens[j][1].lower() in lex.MONTHS:
            read_date(tokens, j, slots)
            i = j + 1
            continue
        i = j + width


# --- comparison ---------------------------------------------------------------------------
