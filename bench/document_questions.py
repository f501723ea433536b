"""The question fixture set, written at run time: three PDFs and a Word file with known facts
on known pages, and 30 questions, each with the page (or section) that answers it.

Facts sit among filler prose made of the same office words (budget, travel, contract…), and
questions are phrased as a person would ask, not copied from the fact, so that ranking has
to work. Two questions per language are Korean and Chinese (in the Word file).
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass

from tests.support.document_samples import filler_paragraph, wrap, write_docx, write_pdf


@dataclass(frozen=True)
class Question:
    text: str
    document: str
    place: int | str                 # PDF page, or the Word section's heading


# document -> (pages, {page: fact})
PDF_FACTS: dict[str, tuple[int, dict[int, str]]] = {
    "annual-report.pdf": (15, {
        2: "Revenue for the year reached 4.2 million EUR, up 6 percent.",
        4: "The travel budget for 2026 is 48,250 EUR and Maria Lopez approved it.",
        6: "Headcount rose from 118 to 131 employees after the Lyon office opened.",
        8: "The board approved a dividend of 1.35 EUR per share on 14 April.",
        10: "Energy costs fell by 11 percent thanks to the new heat pumps in Ghent.",
        12: "Customer complaints dropped to 212 cases, handled by the Porto service desk.",
        13: "The audit by Keller & Partner found no material weaknesses.",
        15: "The next annual meeting is scheduled for 19 March 2027 in Vienna.",
    }),
    "supplier-contracts.pdf": (12, {
        1: "The printer contract with Kyocera ends on 30 June 2027.",
        3: "Cleaning services are provided by Sauber GmbH for 2,900 EUR a month.",
        5: "Laptops are leased from Lenovo for 36 months at 41 EUR per device.",
        6: "The catering supplier Fresco must give 90 days notice to terminate.",
        8: "Office furniture from Steelcase carries a warranty of 12 years.",
        9: "The software licence for Atlassian renews automatically every 1 October.",
        11: "Mobile phones come from Telekom with a data allowance of 20 GB.",
        12: "Late deliveries by any supplier cost a penalty of 0.5 percent per day.",
    }),
    "staff-handbook.pdf": (40, {
        3: "New employees receive their badge from reception on the first morning.",
        9: "Overtime must be approved in advance by the team lead in writing.",
        15: "Each employee has 28 days of paid holiday per year.",
        21: "Parental leave can be extended by up to 6 months without pay.",
        27: "The bicycle allowance is 0.30 EUR per kilometre ridden to work.",
        33: "Expense claims above 500 EUR need the signature of Jonas Berg.",
        38: "Fire drills take place every quarter, led by the safety officer Ines Roth.",
        40: "This handbook was last revised on 2 February 2026.",
    }),
}

DOCX_NAME = "meeting-minutes.docx"
DOCX_SECTIONS = (
    ("Opening", ["The meeting opened at 9:15 with 14 members present."]),
    ("Budget", ["The marketing budget was cut to 75,000 EUR for the second half."]),
    ("Hiring", ["Two data analysts will join in September under Priya Nair."]),
    ("예산", ["출장비는 청구 후 30일 이내에 환급됩니다.",
             "프린터 예산은 12,000유로로 정해졌습니다."]),
    ("预算", ["差旅费在报销申请后三十天内退还。", "会议室的预订由王丽负责管理。"]),
    ("Closing", ["The next meeting will take place on 3 December."]),
)

QUESTIONS = (
    Question("How much revenue did the company make this year?", "annual-report.pdf", 2),
    Question("Who approved the travel budget?", "annual-report.pdf", 4),
    Question("How many employees are there after the Lyon opening?", "annual-report.pdf", 6),
    Question("What dividend per share did the board approve?", "annual-report.pdf", 8),
    Question("Why did energy costs go down?", "annual-report.pdf", 10),
    Question("How many customer complaints were there?", "annual-report.pdf", 12),
    Question("What did the Keller & Partner audit find?", "annual-report.pdf", 13),
    Question("When and where is the next annual meeting?", "annual-report.pdf", 15),
    Question("When does the Kyocera printer contract end?", "supplier-contracts.pdf", 1),
    Question("What do we pay for cleaning each month?", "supplier-contracts.pdf", 3),
    Question("How long is the Lenovo laptop lease?", "supplier-contracts.pdf", 5),
    Question("How much notice does the catering supplier need?", "supplier-contracts.pdf", 6),
    Question("What warranty does the office furniture have?", "supplier-contracts.pdf", 8),
    Question("When does the Atlassian licence renew?", "supplier-contracts.pdf", 9),
    Question("How much data do the mobile phones include?", "supplier-contracts.pdf", 11),
    Question("What is the penalty for late deliveries?", "supplier-contracts.pdf", 12),
    Question("Where do new employees get their badge?", "staff-handbook.pdf", 3),
    Question("Who has to approve overtime?", "staff-handbook.pdf", 9),
    Question("How many days of paid holiday do I get?", "staff-handbook.pdf", 15),
    Question("Can parental leave be extended?", "staff-handbook.pdf", 21),
    Question("How much is the bicycle allowance?", "staff-handbook.pdf", 27),
    Question("Who signs expense claims above 500 EUR?", "staff-handbook.pdf", 33),
    Question("How often are fire drills held?", "staff-handbook.pdf", 38),
    Question("When was the handbook last revised?", "staff-handbook.pdf", 40),
    Question("How many members were at the meeting?", DOCX_NAME, "Opening"),
    Question("What happened to the marketing budget?", DOCX_NAME, "Budget"),
    Question("출장비는 언제 환급되나요?", DOCX_NAME, "예산"),
    Question("프린터 예산은 얼마인가요?", DOCX_NAME, "예산"),
    Question("差旅费什么时候退还？", DOCX_NAME, "预算"),
    Question("会议室的预订由谁管理？", DOCX_NAME, "预算"),
)


def write_fixture_set(folder: pathlib.Path) -> list[pathlib.Path]:
    """The four files, in the order a user would attach them."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, (pages, facts) in PDF_FACTS.items():
        lines = []
        for number in range(1, pages + 1):
            page = [f"{name.split('.')[0].replace('-', ' ').title()} - page {number}"]
            for paragraph in range(2):
                page += wrap(filler_paragraph(sum(map(ord, name)) % 97 + number * 5 + paragraph))
            if number in facts:
                page[2:2] = wrap(facts[number])
            lines.append(page)
        paths.append(write_pdf(folder / name, lines))
    sections = [(heading, [filler_paragraph(i * 3), *facts, filler_paragraph(i * 3 + 1)])
                for i, (heading, facts) in enumerate(DOCX_SECTIONS)]
    paths.append(write_docx(folder / DOCX_NAME, sections))
    return paths


def answered_by(passages, question: Question) -> bool:
    """Is the question's page (or section) among the passages given to the model?"""
    for passage in passages:
        if passage.document != question.document:
            continue
        if isinstance(question.place, int) and passage.page == question.place:
            return True
        if isinstance(question.place, str) and passage.label == f"section '{question.place}'":
            return True
    return False
