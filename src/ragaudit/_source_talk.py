"""Sentences about the sources rather than the world: abstentions ("the sources do not say …") and
conflict notes ("the two guides differ"). The segmenter reports them apart from claims."""

from __future__ import annotations

import re

_DOC_WORDS = (
    r"(?:passages?|sources?|documents?|docs|context|provided\ (?:text|information)|information(?:\ provided)?|"
    r"articles?|data|pages?|documentation|materials?|figures|notes|readme|results|neither|none\ of\ them)"
)
_WORLD_WORDS = (
    r"(?:records?|polic(?:y|ies)|handbooks?|websites?|guides?|guidance|reports?|letters?|schedules?|calendars?|"
    r"timetables?|statements?|notices?|updates?|announcements?|tables?|lists?|leaflets?|brochures?|faqs?|terms|"
    r"contracts?|manuals?|particulars|listings?|either|both|they|it|these|this)"
)
_WRITTEN_WORDS = (
    rf"(?:{_DOC_WORDS}|records?|reports?|websites?|notices?|leaflets?|faqs?|guides?|summar(?:y|ies)|tables?|lists?|"
    r"newsletters?)"
)
"""What is written, not what is agreed (a policy or a contract "only covers" the world)."""
ABSTENTION_RE = re.compile(
    rf"""(?:
        \b{_DOC_WORDS}\b[^.]{{0,60}}?
           \b(?:do(?:es)?\ not|don't|doesn't|did\ not|didn't|fail\ to|never)\s+
           (?:say|state|mention|specify|provide|include|contain|address|cover|discuss|indicate|give|offer|describe|
              tell|answer|list|show|set\ out|spell\ out|explain|confirm|publish|quote|break|put|report|name)
      | \b{_WRITTEN_WORDS}\b[^.]{{0,40}}?\b(?:can't|cannot|can\ not|couldn't|could\ not)\s+(?:say|tell|show|answer|confirm)\b
      | \b{_WRITTEN_WORDS}\b[^.]{{0,40}}?\bonly\ (?:lists?|gives?|covers?|mentions?|quotes?|shows?|sets\ out|
           explains?|describes?|deals\ with|talks\ about)\b(?=[^\d.]*+(?:\.|$))
      | \b(?:whether|how|what|which|when|who)\b[^.]{{0,80}}?\b(?:isn't|aren't|is\ not|are\ not)\ covered\b
      | \b(?:isn't|aren't|is\ not|are\ not)\ covered\ (?:here|(?:in|by)\ (?:the|these|this|either)\ (?:sources?|documents?|
           pages?|passages?|papers|materials))\b
      | \b{_WORLD_WORDS}\b[^.]{{0,60}}?
           \b(?:do(?:es)?\ not|don't|doesn't|did\ not|didn't|never)\s+
           (?:say|state|mention|specify|tell|indicate|set\ out|spell\ out|explain|describe|address|answer|
              confirm|quote|publish)
      | \b(?:no|not\ enough|insufficient)\ (?:specific\ )?(?:information|details?|data|mention|evidence|figures?|
           numbers?|dates?|fares?|prices?|word|breakdown|statistics)\b
           [^.]{{0,40}}?\b(?:passages?|sources?|documents?|context|provided|available|given|stated|published|
           listed|mentioned|reported)
      | \b(?:i\ (?:could|can)\ ?not|i\ can't|i\ (?:was|am)\ unable\ to|unable\ to|i\ don't\ know|
           cannot\ be\ (?:determined|worked\ out|calculated|confirmed|answered)|
           can't\ be\ (?:determined|worked\ out|calculated|confirmed|answered)|
           (?:(?:is|are|was|were)\ not|isn't|aren't|wasn't|weren't)\ (?:mentioned|specified|stated|addressed)\b|
           (?:isn't|aren't|wasn't|weren't)\ said\b|
           (?:(?:is|are|was|were)\ not|isn't|aren't|wasn't|weren't)\ (?:provided|included|available|given|known|listed|
           published|detailed|quoted)
           \ (?:here\b|anywhere\b|in\ what\ (?:you've|you\ have)\ (?:shared|sent|provided|given)\b|
           (?:in|on|by|from)\ (?:the|these|this|that|either|any)\ (?:[\w'’-]+\ ){{0,2}}(?:sources?|documents?|passages?|
           pages?|text|information|materials?|extracts?|context|website|leaflet|notice|guide|brochure)\b)|
           \b(?:prices?|costs?|fees?|charges?|dates?|figures?|numbers?|amounts?|details?|times?|hours|deadlines?|reasons?|
           breakdown|rates?|names?|totals?|length|duration|capacity|address|email|contact|size|dimensions|schedule|
           timetable|information)\ (?:(?:of|for)\ (?:[\w'’-]+\ ){{1,3}})?(?:(?:is|are|was|were)\ not|isn't|aren't|wasn't|weren't)
           \ (?:provided|available|given|known|listed|published|detailed|quoted)\b)
      | \b(?:not\ possible|no\ way)\ to\ (?:determine|answer|say|tell|know|work\ out)
      | \bneither\ (?:source|document|passage|page)\b
      | \b(?:neither|none)\ (?:of\ (?:them|the\ (?:\w+\ )?\w+)\ |\w+\ )?(?:says|states|mentions|specifies|gives|lists|covers|addresses|
           includes|provides|shows|sets(?:\ out)?|spells\ out)\b
      | \bnone\ of\ the\ (?:\w+\ )?(?:sources|documents|passages|pages)\b
      | \bnothing\ (?:here|in\ (?:the|these|this|either)\ \w+)\ (?:says|states|mentions|shows|tells|covers|indicates|gives|
           specifies|sets\ out)\b
      | \b(?:can't|cannot|can\ not|couldn't|could\ not)\ be\ (?:given|said|stated|determined|worked\ out|calculated|answered|
           confirmed|split|broken\ down|estimated|known|told|quoted|identified|computed|derived|pinned\ down)
           \ (?:\w+\ ){{0,5}}?(?:here\b|from\ (?:what(?:'s|\ is|\ was)\ (?:given|here|provided|available)|
           (?:the|these)\ (?:sources|documents|passages|pages|papers|records)))
      | \b(?:isn't|aren't|is\ not|are\ not|wasn't|weren't)\ (?:among|in|part\ of|included\ (?:in|with|among))\ (?:these|the)
           \ (?:documents|sources|passages|pages|papers|materials|extracts)\b
    )""",
    re.IGNORECASE | re.VERBOSE,
)
CONFLICT_NOTE_RE = re.compile(
    r"""\b(?:sources?|documents?|pages?|documentation|passages?|two|both|they|these|figures|accounts|reports?|
           readme|reference|calendar|letter|handbook|policy|notice)\b[^.]{0,50}?
        \b(?:disagree|differ|conflict|contradict|inconsistent|(?:isn't|aren't|not)\ consistent|
           (?:don't|do\ not|doesn't|does\ not)\ (?:quite\ |entirely\ |fully\ |exactly\ |completely\ )?(?:agree|match|tally)|(?:give|say|state|set)\ different|different\ (?:figures|answers|dates|
           numbers|values|penalties|amounts|limits|deadlines|times))
      | \b(?:differs?|disagrees?|varies|vary|conflicts?)\ (?:between|across|among)\ (?:the\ )?(?:two\ |three\ |both\ )?
           (?:sources|documents|pages|passages|reports|guides|accounts)\b
      | \b(?:given|because\ of|in\ view\ of|with)\ (?:the|this|that)\ (?:discrepancy|disagreement|conflict|inconsistency)\b""",
    re.IGNORECASE | re.VERBOSE,
)
_WHERE_FROM = (
    r"(?:would|will)\ (?:have|need)\ to\ come\ from|is\ (?:something|one|the\ one)\ to\ (?:check|ask|confirm)"
    r"|(?:would|will)\ be\ the\ (?:place|people|person|ones?)\ to\ (?:look|find|ask|check|confirm)"
    r"|(?:should|can|could|will|would)\ (?:be\ able\ to\ )?(?:confirm|clarify|tell\ you)\ (?:the\ position|this|that|"
    r"whether|which|what|how|if)\b"
)
REFERRAL_RE = re.compile(
    rf"\b(?:ask|check\ with|confirm(?:ed)?\ with|contact|get\ in\ touch|worth\ (?:asking|checking)|{_WHERE_FROM})\b",
    re.IGNORECASE | re.VERBOSE,
)
"""Where to get what the sources lack ("ask the clinic about that", "pricing would have to come from the
contract"): after a sentence that says what they lack, advice about the gap, not a claim about the world."""
WHERE_FROM_RE = re.compile(rf"\b(?:{_WHERE_FROM})\b", re.IGNORECASE | re.VERBOSE)
"""A sentence that says where a fact would come from ("pricing would have to come from the contract")."""
_WORTH_ASKING = r"""(?:so\W++)?+it(?:'s|’s|\ is|\ would\ be|'d\ be|\ may\ be)\ (?:worth|best|wise)\ (?:asking|checking|confirming)\b
    [^.\d]{0,80}?\b(?:which|whether|what|how|if|when|who)\b"""
WORTH_ASKING_RE = re.compile(_WORTH_ASKING, re.IGNORECASE | re.VERBOSE)
"""Advice to ask about what is open ("It's worth asking Haldane which timescale applies"): no claim, even
with no gap said before it."""
REFERRAL_SENTENCE_RE = re.compile(
    rf"""(?:(?:so|instead|otherwise|please)\W++)?+(?:you(?:'d|'ll|\ would|\ will|\ may|\ might)?+\s++(?:need|have|want)\ to\s++)?+
        (?:ask|check\ with|confirm|contact|get\ in\ touch|speak\ to|talk\ to)\b
    | it(?:'s|’s|\ is|\ would\ be|'d\ be|\ may\ be)\ (?:(?:best|wise|worth\ it|a\ good\ idea)\ to\s++
        (?:ask|check\ with|confirm\ with|contact|call|phone|speak\ to|talk\ to)|worth\ (?:asking(?!\ for\b)|contacting|
        checking\ with))\b
    | {_WORTH_ASKING}
    | until\b[^.,;]{{0,60}}?\b(?:confirms?|clarif(?:y|ies)|tells?\ you)\b""",
    re.IGNORECASE | re.VERBOSE,
)
"""A sentence that opens with advice on where to ask ("Ask the clinic …", "You'd need to contact …", "it's worth asking
Quadrant directly", "Until the prescriber confirms which limit applies, …"): matched at a sentence's start only
(:data:`REFERRAL_RE` finds the words anywhere, for claims)."""
_ABOUT_RE = re.compile(r"(?:for|on|about|as\s++for|regarding)\s++[^\W\d]", re.IGNORECASE)
"""What advice to ask is about, before it ("*For the charge itself* you'd need to ask Quillby")."""
_PREFIX_CHARS = 60
"""How long what the advice is about may be."""
_GAP_RE = re.compile(r",?\s++")
_TELLS_RE = re.compile(
    r"\b(?:is|are|was|were|be|has|have|had|does|do|did|will|can|opens?|closes?|runs?)\b|,\s*+(?:which|who|whom|as|since|"
    r"because|so|and|but|where|though)\b|\s(?:which|who)\s",
    re.IGNORECASE,
)
"""A verb before the advice, or a clause after it: the sentence says what its matter is, not only where to ask."""


def _advice_after_matter(sentence: str) -> bool:
    """Whether ``sentence`` opens with what it is about and then only advises where to ask ("For the guest policy
    itself, it's worth asking Quadrant directly"; not "On Saturdays the office is open, so ask in person", nor "For
    refunds, ask the office, which refunds within three days")."""
    if not _ABOUT_RE.match(sentence):
        return False
    for m in _GAP_RE.finditer(sentence[: _PREFIX_CHARS + 20]):
        advice = REFERRAL_SENTENCE_RE.match(sentence, m.end())
        if advice:
            return not _TELLS_RE.search(sentence[: m.start()]) and not _TELLS_RE.search(sentence, advice.end())
    return False


def is_referral(sentence: str) -> bool:
    """Whether a sentence (after one about what the sources lack) only says where to find it: advice to ask, perhaps
    after what it is about, or where the fact would come from, with no figure of its own."""
    advice = REFERRAL_SENTENCE_RE.match(sentence) or WHERE_FROM_RE.search(sentence) or _advice_after_matter(sentence)
    return bool(advice) and not any(c.isdigit() for c in sentence)


FRAMING_RE = re.compile(
    r"""(?:(?:so|well|honestly|unfortunately),?\s++)?+
        (?:it(?:'s|’s|\ is)\ (?:too\ (?:early|soon)|hard|difficult|impossible)\ to\ (?:say|tell|know)(?:\ (?:for\ sure|yet|
              definitively|with\ certainty))?+
         |(?:nobody|no\ one|no-one)\ (?:can|could)\ (?:say|tell|know)(?:\ (?:for\ sure|yet|for\ certain|with\ certainty))?+
         |(?:it|that|this)\ (?:all\ )?(?:depends|varies)(?:\ on\ (?:the\ (?:details|circumstances|case)|your\ circumstances
              |(?:how|what|which|when|where|whether)\ [\w'’\ -]{1,60}))?+
         |not\ (?:necessarily|always|quite|exactly|yet)
         |(?:for\ the\ most\ part|mostly|largely|broadly|in\ general|generally|in\ most\ cases|in\ part|partly),?\ (?:yes|no)
         |(?:possibly|perhaps|maybe|potentially)(?:,?\ but\ (?:it|that|this)\ (?:hasn't|hasn’t|has\ not|isn't|isn’t|is\ not)
              \ (?:been\ )?(?:established|confirmed|proven|proved|shown|certain|clear)(?:\ yet)?)?+)[.!]?""",
    re.IGNORECASE | re.VERBOSE,
)
"""A sentence that frames the answer and states nothing ("It's too early to say for sure.", "It depends.", "It depends
on how serious the problem is."):
what follows carries the claims; "Possibly, but it hasn't been established." answers a yes-or-no question
with what the claims after it show."""
_NOTE_HEAD_RE = re.compile(r"[^:]{10,200}?:(?=\s++\S)")
_CLAIM_BEFORE_RE = re.compile(r",\s(?:and|but|while|whereas|yet)\s|;\s")
_LONG_NOTE = 200
"""A conflict note longer than this is a claim too, unless its note ends at a colon (below)."""


def conflict_note_length(sentence: str) -> int:
    """Characters of ``sentence`` that are a conflict note ("the two guides differ"): all of a short one, the
    head of a long one up to its colon ("They give different limits: the registry caps it at 65, …", whose
    claims follow the colon), else 0."""
    if len(sentence) < _LONG_NOTE:
        return len(sentence) if CONFLICT_NOTE_RE.search(sentence) else 0
    head = _NOTE_HEAD_RE.match(sentence)
    note = CONFLICT_NOTE_RE.search(head.group()) if head else None
    # A claim before the note stays one ("Both price it at £65, but they give different durations: …").
    return head.end() if head and note and not _CLAIM_BEFORE_RE.search(head.group(), 0, note.start()) else 0
