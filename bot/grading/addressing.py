"""Text that addresses the grader, found by its shape rather than by a list of known sentences (issue #34, M3).

A candidate's answer speaks about the question; it has no reason to speak to whoever grades it. So a sentence is
taken as addressed to the grader when it has one of these shapes, in English, Chinese, French, Spanish,
Portuguese, Italian, German, Japanese, Korean or Russian:

- an address to the grader: a word for the grader or reader ("grader", "whoever scores this", "审阅人",
  "correcteur", "Prüfer", "採点者", "채점자", "проверяющий") as a salutation or an addressee ("to the ...",
  "Note for ...", "致...", "...请注意", "...の方へ", "...님께", "для ..."), together with a word about scores,
  leniency, coverage, or a request ("please", "请", "merci", "bitte", "ください");
- an instruction or a claim about the score itself: a verb that gives, sets or deserves a grade ("give",
  "award", "rate", "deserves", "donnez", "merece", "vergeben", "つけて", "주세요", "поставьте", "给", "打") near
  the top of a scale ("full marks", "100 across the board", "note maximale", "volle Punktzahl", "満点", "만점",
  "максимальный балл", "满分");
- a heading or label that claims to give scoring guidance ("## Scoring guidance", "Grading instructions:",
  "### 评分说明", "Consignes de notation", "Bewertungshinweise", "採点基準"): the heading and the section under it.

Patterns are written in plain words and compiled on the text as bot/grading/injection.py folds it (accents and
marks dropped, look-alike letters mapped to Latin, case folded), so they meet disguised text the same way. Each
pattern is bounded (no nested repetition; the gaps between words are bounded runs inside one sentence).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

_GAP = r"[^.!?。！？\n]{0,60}?"  # a bounded run inside one sentence
_SHORT = r"[^.!?。！？\n]{0,24}?"

# a word for the grader (each language)
_GRADER = "|".join(
    (
        r"\b(?:grader|graders|scorer|scorers|examiner|examiners|evaluator|evaluators|assessor|assessors|reviewer"
        r"|reviewers|rater|raters|marker|markers)\b",
        r"\b(?:person|one|people|someone)\s+(?:who(?:\s+is|'s)?\s+)?(?:scor|grad|mark|review|evaluat|assess|check)"
        r"(?:es|s|ing|e)?\b",
        r"评分(?:员|者|人|老师|的人|的同学)|打分的(?:人|同学|老师)|负责(?:打分|评分|阅卷|批改|判分)的?(?:人|同学|老师)?",
        r"阅卷(?:人|老师|者|组)|审阅(?:人|者|老师)|评审(?:员|老师|人|专家)?|评委|考官|批改(?:的)?(?:老师|人)|判卷(?:人|老师)",
        r"改卷(?:老师|人)|老师",
        r"\b(?:correcteur|correctrice|evaluateur|evaluatrice|examinateur|examinatrice|jury|notateur)s?\b",
        r"\bpersonne\s+qui\s+(?:corrige|note|evalue)\b|\b(?:celui|celle)\s+qui\s+(?:corrige|note|evalue)\b",
        r"\b(?:evaluador|evaluadora|corrector|correctora|examinador|examinadora|calificador|calificadora|revisor"
        r"|revisora)(?:es|as)?\b|\bquien\s+(?:califique|corrija|evalue|revise|puntue)\b",
        r"\b(?:avaliador|avaliadora|corretor|corretora)(?:es|as)?\b|\bquem\s+(?:for\s+)?(?:corrigir|avaliar)\b",
        r"\b(?:valutatore|valutatrice|correttore|correttrice|esaminatore|esaminatrice|revisore)\b"
        r"|\bchi\s+(?:corregge|valuta)\b",
        r"\b(?:prufer|pruferin|bewerter|bewerterin|korrektor|korrektorin|gutachter|gutachterin)\b"
        r"|\b(?:bewertende|korrigierende|prufende)n?\s+person\b",
        r"採点者|採点する方|採点される方|採点官|採点担当|評価者|評価する方|審査員|試験官|レビュアー|先生",
        r"채점자|평가자|심사위원|채점관|검토자|선생님",
        r"проверяющ\w*|экзаменатор\w*|оценщик\w*|рецензент\w*|преподавател\w*",
    )
)
# the reader named as whoever grades: an address in itself
_READER = (
    r"\bwhoever\s+(?:is\s+)?(?:scor|grad|mark|review|read|evaluat|assess|check)\w*"
    r"|\bif\s+you(?:\s+are|'re)\s+(?:the\s+one\s+)?(?:scor|grad|mark|review|evaluat|assess)\w*"
    r"|\bwer\s+(?:das|dies|diese\s+antwort)\s+(?:bewertet|korrigiert|pruft)\b"
)
# the start of a sentence, with what may come before a salutation (P.S., N.B., a quote mark, a comment)
_START = r"(?:^|(?<=[.!?。！？\n]))\s*(?:p\.?\s?s\.?\s*[:,-]?\s*|n\.?b\.?\s*[:,-]?\s*|附[:：]?\s*|>\s*|\(\s*|<!--\s*)?"
# a salutation at the start of a sentence: "Reviewer:", "To the grader,", "Dear correcteur,", "老师，"
_SALUTE = rf"{_START}(?:(?:to|for|attention|dear|hey|hi|hello)\s+)?(?:the\s+|my\s+)?(?:{_GRADER})\s*[:,，：、]"
# an addressee anywhere: "note to the grader", "à l'attention de l'évaluateur", "致评分者", "审阅人请注意",
# "採点者の方へ", "채점자님께", "для проверяющего"
_ADDRESSEE = (
    r"(?:\b(?:note|notes|message|request|reminder|word|words|instructions?)\s+(?:to|for)\s+|\b(?:dear|attention"
    r"|hey|hi|hello)\s+|\b(?:note|mot|message)\s+(?:au|aux|a la|pour le|pour la)\s+|\ba l'attention d(?:e|u|es)\s+"
    r"|\b(?:cher|chere|querido|querida|estimado|estimada|caro|cara|prezado|prezada|gentile|liebe|lieber"
    r"|sehr geehrte|sehr geehrter)\s+|\b(?:nota|mensaje|mensagem|messaggio)\s+(?:para|al|a la|ao|a|per il|per la"
    r"|al|alla)\s+|\bpara\s+(?:el|la|o|a)?\s*|\b(?:hinweis|nachricht|notiz|anmerkung)\s+(?:an|fur)\s+"
    r"|\b(?:an|fur)\s+(?:den|die)\s+|\b(?:примечание|записка|сообщение)?\s*(?:для|к)\s+|致|写给)"
    r"(?:the\s+|my\s+|our\s+|any\s+|le\s+|la\s+|l'|el\s+|o\s+|a\s+|il\s+|den\s+|die\s+|各位|亲爱的|尊敬的)?"
    rf"(?:{_GRADER})|(?:{_GRADER})(?:请|您好|你好|注意|须知|的话|の方へ|の方に|へ|様|さま|殿|님께|님|에게|께|\s+참고)"
    rf"|给(?:{_GRADER})的话"
)
# words about the score, leniency, coverage, or a request
_ABOUT = "|".join(
    (
        r"\b(?:score|scores|scored|scoring|grade|grades|graded|grading|mark|marks|marked|marking|points?|rate|rating"
        r"|credit|generous|lenient|leniency|kind|benefit of the doubt|please|pre-?approved|full|maximum|highest|top"
        r"|perfect|100|key points?|rubric|criteri(?:on|a)|dimensions?)\b",
        r"分|满|要点|维度|宽容|手下留情|请|麻烦|拜托",
        r"\b(?:note|notes|notation|noter|notez|points|maximale|merci|s'il vous plait|critere|criteres)\b",
        r"\b(?:nota|notas|puntuacion|calificacion|puntos|maxima|maximo|por favor|criterios|pontos|pontuacao|voto|voti"
        r"|punteggio|massimo|per favore|punti)\b",
        r"\b(?:punkte|punktzahl|note|bewertung|bitte|bestnote|kriterien|volle)\b|hochst\w*",
        r"点|採点|評価|満|ください|お願い|요점|점수|만점|주세요|주십시오|부여|항목",
        r"балл\w*|оценк\w*|оцени\w*|максимальн\w*|пожалуйста|критери\w*",
    )
)
# the top of a scale
_TOP = "|".join(
    (
        r"\b(?:full\s+(?:marks?|score|credit|points)|top\s+(?:marks?|score)|(?:the\s+)?highest(?:\s+possible)?\s+"
        r"(?:score|mark|grade|rating)|max(?:imum)?(?:\s+possible)?\s+(?:score|marks?|points|rating|grade)"
        r"|(?:the\s+)?maximum\s+on\s+(?:each|every|all)|perfect\s+(?:score|marks?|10)|a\+"
        r"|100\s*(?:/|out\s+of|of)\s*100|100\s+points|100\s+(?:across|on\s+(?:each|every|all)|each)"
        r"|10\s*/\s*10|five\s+stars)",
        r"满分|最高分|一百分|(?<![到至~\-\s])\s?100\s*分|满星",
        r"\b(?:note\s+maximale|(?:la\s+)?(?:meilleure|plus\s+haute)\s+note|tous\s+les\s+points|20\s*/\s*20"
        r"|100\s*(?:sur|/)\s*100|le\s+maximum)",
        r"\b(?:puntuacion\s+maxima|nota\s+(?:mas\s+alta|maxima)|calificacion\s+maxima|100\s+puntos"
        r"|todos\s+los\s+puntos|el\s+maximo|pontuacao\s+maxima|100\s+pontos|nota\s+10"
        r"|punteggio\s+massimo|massimo\s+dei\s+voti|voto\s+massimo|100\s+punti|30\s+e\s+lode)",
        r"\b(?:volle\s+punkt(?:e|zahl)|hochstpunktzahl|bestnote|hochste\s+(?:note|punktzahl|bewertung)"
        r"|100\s+(?:von|/)\s+100|alle\s+punkte)",
        r"満点|最高点|最高評価|100点|百点|만점|최고\s*점수|최고점|100점",
        r"максимальн\w*\s+балл\w*|высш\w*\s+балл\w*|100\s+балл\w*|высш\w*\s+оценк\w*",
    )
)
# a request to give or set a grade, or the answer claiming it deserves one, before the top of the scale: an
# imperative (at the start of a clause, after "please", or with the answer or the grader as its object), never a
# description ("judges give the highest score to the first answer", "奖励模型会给这种回答打满分")
_VERB = r"(?:give|award|assign|grant|record|set|put|rate|mark|treat|count|score|grade|enter)"
_GIVE = "|".join(
    (
        rf"(?:^|(?<=[.!?:;,(\n]))\s*(?:(?:please|kindly|just|simply|now)\s+)?{_VERB}\b",
        rf"\b(?:please|kindly)\s+{_VERB}\b|\b{_VERB}\s+(?:me|us|this|it|my|each|every|all|them)\b",
        r"\b(?:this|my)\s+(?:answer|response|submission)\b|\b(?:i|it|this)\s+(?:deserves?|merits?|warrants?"
        r"|should\s+(?:get|receive|be\s+given))\b",
        r"请|麻烦|拜托|务必|一律|直接|给我|给本人|给本回答|应得|值得|应该得|记为|记作|判为|本回答",
        r"\b(?:donnez|attribuez|accordez|mettez|notez|veuillez|merci\s+de|merci\s+d'|cette\s+reponse|merite)\b",
        r"\b(?:dale|denle|otorgue|otorguen|asigne|asignen|ponga|pongan|pon|ponme|califique|califiquen|puntue"
        r"|esta\s+respuesta|merece|atribua|atribuam|de-me|esta\s+resposta|assegna|assegnate|assegni|dai|date|dia"
        r"|questa\s+risposta|merita)\b",
        r"\b(?:bitte|geben|gib|vergeben|vergib|setzen|setze|bewerten|bewerte|diese\s+antwort|verdient)\b",
        r"поставьте|поставь|оцените|оцени|дайте|дай|этот\s+ответ|заслуживает",
        r"この回答|この答え|이\s*답변|이\s*답안",
    )
)
# ... or after it (verb-final languages; German infinitives): a request, not a description ("満点をつけている")
_GIVE_AFTER = (
    r"(?:つけて|付けて|与えて|評価して|採点して|にして)(?:くたさい|下さい|ほしい|もらえ)|として扱(?:う|って|え)|値する"
    r"|주세요|주십시오|부여하(?:십시오|세요|라|시길)|줘"
)
# a heading or label that claims to give scoring guidance
_TOPIC = (
    r"(?:scoring|grading|marking|grader|scorer|评分|阅卷|打分|判分|採点|채점|notation|correction|calificacion"
    r"|puntuacion|correccion|avaliacao|correcao|valutazione|correzione|bewertungs?|korrektur|оценщик\w*|оценк\w*"
    r"|оценивани\w*|проверяющ\w*"
    r"|(?:evaluation|assessment|review|evaluacion|bewertung)(?=\s+(?:instructions?|guidance|override|directive)))"
)
_GUIDE = (
    r"(?:guidance|guide|guidelines?|instructions?|notes?|policy|override|directive|说明|指南|须知|要求|指引|备注|规则"
    r"|ガイド|指示|方針|メモ|지침|안내|consignes|bareme|instrucciones|pautas|instrucoes|istruzioni|hinweise|richtlinien"
    r"|anweisungen|указани\w*|инструкци\w*|примечани\w*)"
)
_CRITERIA = r"(?:criteria|标准|基準|기준|criteres|criterios|kriterien|критери\w*)"  # in a heading only
_HEADING_LINE = r"^\s*(?:#{1,6}|\*\*)\s*(?P<t>[^\n]{1,80}?)[\s*:：]*$"
_LABEL_LINE = r"^\s*(?:[>*-]+\s*)?(?P<t>[^:：\n]{1,60})[:：]"


# Literal pieces, one of which every match of `_GRADER` / `_READER` (resp. `_TOP`) holds: the patterns are searched
# only around them (most answers hold none, and a search of the whole answer costs milliseconds)
_GRADER_STEMS = (
    "grader", "scorer", "examiner", "evaluator", "assessor", "reviewer", "rater", "marker", "person", "people",
    "someone", "one who", "one scor", "one grad", "one mark", "one review", "one evaluat", "one assess", "one check",
    "whoever", "if you", "wer das", "wer dies", "评分", "打分", "负责", "阅卷", "审阅", "评审", "评委", "考官", "批改", "判卷",
    "改卷", "老师", "correcteur", "correctrice", "evaluateur", "evaluatrice", "examinat", "jury", "notateur",
    "qui corrige", "qui note", "qui evalue", "evaluador", "corrector", "examinad", "calificad", "revisor", "quien",
    "avaliad", "corretor", "quem", "valutat", "correttor", "correttric", "esaminat", "chi corregge", "chi valuta",
    "prufer", "bewerter", "korrektor", "gutachter", "bewertende", "korrigierende", "prufende", "採点", "評価", "審査",
    "試験官", "レビュア", "先生", "채점", "평가", "심사", "검토", "선생", "проверя", "экзаменатор", "оценщик", "рецензент",
    "преподавател",
)  # fmt: skip
_TOP_STEMS = (
    "full mark", "full score", "full credit", "full point", "top mark", "top score", "highest", "max score",
    "max mark", "max point", "max rating", "max grade", "max possible", "maximum score", "maximum mark",
    "maximum point", "maximum rating", "maximum grade", "maximum possible", "maximum on", "perfect", "a+", "of 100",
    "/100", "/ 100", "100 point", "100 across", "100 on ", "100 each", "10/10", "10 / 10", "five star", "满分", "最高分",
    "一百分", "100分", "100 分", "满星", "maximale", "meilleure note", "haute note", "tous les points", "20/20", "20 / 20",
    "sur 100", "le maximum", "maxima", "mas alta", "100 puntos", "todos los puntos", "el maximo", "100 pontos",
    "nota 10", "massimo", "100 punti", "e lode", "volle punkt", "hochst", "bestnote", "von 100", "alle punkte", "満点",
    "最高", "100点", "百点", "만점", "최고", "100점", "максимальн", "высш", "100 балл",
)  # fmt: skip
_WINDOW_BEFORE, _WINDOW_AFTER = 100, 130  # characters searched around a piece: the longest shape fits
_WHOLE_FROM = 200  # pieces in a text from which the whole text is searched at once


def _windows(view: str, stems: tuple[str, ...]) -> list[tuple[int, int]]:
    """The stretches of `view` around each occurrence of a stem, overlapping ones merged."""
    found: list[tuple[int, int]] = []
    for stem in stems:
        at = view.find(stem)
        while at != -1:
            found.append((max(0, at - _WINDOW_BEFORE), min(len(view), at + len(stem) + _WINDOW_AFTER)))
            if len(found) > _WHOLE_FROM:
                return [(0, len(view))]
            at = view.find(stem, at + 1)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(found):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


@dataclass(frozen=True)
class Addressing:
    addressed: re.Pattern[str]
    instructed: re.Pattern[str]
    grader_stems: tuple[str, ...]
    top_stems: tuple[str, ...]
    heading: re.Pattern[str]
    label: re.Pattern[str]
    topic: re.Pattern[str]
    heading_topic: re.Pattern[str]

    def search(self, view: str) -> tuple[int, int] | None:
        """(start, end) of the first sentence shape that addresses the grader in a folded view, or None."""
        best: tuple[int, int] | None = None
        for pattern, stems in ((self.addressed, self.grader_stems), (self.instructed, self.top_stems)):
            for start, end in _windows(view, stems):
                m = pattern.search(view, start, end)
                if m:
                    if best is None or m.start() < best[0]:
                        best = (m.start(), m.end())
                    break
        return best

    def guidance(self, line: str) -> str | None:
        """'section' when a folded line is a heading claiming scoring guidance (the section under it goes too),
        'line' when it is such a label with its text after it ("Grading instructions: ..."), None otherwise."""
        heading = self.heading.match(line)
        if heading and self.heading_topic.search(heading.group("t")):
            return "section"
        label = self.label.match(line)
        if label and self.topic.search(label.group("t")):
            return "line" if line[label.end() :].strip() else "section"
        return None


def compiled(fold: Callable[[str], str]) -> Addressing:
    """The patterns compiled on text folded by `fold` (the words in them folded the same way)."""
    addressed = rf"(?:{_SALUTE}|{_ADDRESSEE}|{_READER}){_GAP}(?:{_ABOUT})"
    instructed = rf"(?:{_GIVE}){_GAP}(?:{_TOP})|(?:{_TOP}){_SHORT}(?:{_GIVE_AFTER})"
    between = r"\s*(?:de|di|do|da|per|para|pour|zur|fur|для|по)?\s*(?:la\s+|l'|il\s+|el\s+)?"
    topic_after = (
        rf"(?:{_TOPIC}|evaluation|evaluacion|valutazione|avaliacao|bewertung)"  # "Instrucciones de evaluación"
    )
    guide = rf"{_TOPIC}\s*{_GUIDE}|{_GUIDE}{between}{topic_after}|{_TOPIC}(?:\s*\([^)\n]{{0,40}}\))?\s*notes?"
    criteria = rf"{guide}|{_TOPIC}\s*{_CRITERIA}|{_CRITERIA}{between}{_TOPIC}"
    named = "(?P<t>"  # fold() lower-cases the group's P

    def build(pattern: str, flags: int = 0) -> re.Pattern[str]:
        return re.compile(fold(pattern).replace(named.lower(), named), flags)

    return Addressing(
        addressed=build(addressed, re.M),
        instructed=build(instructed, re.M),
        grader_stems=tuple(dict.fromkeys(fold(x) for x in _GRADER_STEMS)),
        top_stems=tuple(dict.fromkeys(fold(x) for x in _TOP_STEMS)),
        heading=build(_HEADING_LINE),
        label=build(_LABEL_LINE),
        topic=build(guide),
        heading_topic=build(criteria),
    )
