"""Dockets mentioned in evidence, transmission frames and timelines, progress text."""

from __future__ import annotations

from components.data import progress_text
from components.dockets_view import chunk_texts, filings_frame, mentioned_control_numbers
from components.transmission_view import county_options, projects_frame, timeline_frame
from gridclient import DocketFiling, EvidenceChunk, TransmissionProject


def models(model, wires):
    return [model.model_validate(wire) for wire in wires]


def test_control_numbers_are_found_in_content_and_sections_in_order():
    chunks = models(
        EvidenceChunk,
        [
            {
                "sectionPath": ["Docket 55999", "Application"],
                "content": "See control number 56211.",
            },
            {"sectionPath": [], "content": "docket no. 55999 again; project 12 and year 2025"},
        ],
    )
    assert mentioned_control_numbers(chunk_texts(chunks)) == ["55999", "56211"]
    assert mentioned_control_numbers(["no docket here", None]) == []


def test_filings_are_ordered_by_item_with_links_and_authority():
    frame = filings_frame(
        models(
            DocketFiling,
            [
                {
                    "id": "b",
                    "itemNumber": 2,
                    "filedAt": "2024-07-01",
                    "documentUrl": "u2",
                    "evidence": {"authority": "official_filing"},
                    "qualityFlags": [],
                },
                {
                    "id": "a",
                    "itemNumber": 1,
                    "filedAt": "2024-06-03",
                    "documentUrl": "u1",
                    "evidence": {"authority": "official_filing"},
                    "qualityFlags": [],
                },
            ],
        )
    )
    assert frame["documentUrl"].tolist() == ["u1", "u2"]
    assert frame["authority"].tolist() == ["official_filing"] * 2


def test_transmission_frame_and_timeline():
    projects = [
        {
            "id": "t1",
            "projectNumber": "P1",
            "title": "Line",
            "status": "planned",
            "serviceLevelKv": 345,
            "counties": ["Travis", "Hays"],
            "projectedInServiceDate": "2027-05-01",
            "actualInServiceDate": None,
            "evidence": {"sourceUrl": "https://e.test/t1", "sourceLocator": "row 3"},
            "qualityFlags": [{"code": "x"}],
        },
        {
            "id": "t2",
            "projectNumber": "P2",
            "title": "Sub",
            "status": "complete",
            "serviceLevelKv": 138,
            "counties": ["Bastrop"],
            "projectedInServiceDate": "2024-01-01",
            "actualInServiceDate": "2024-03-01",
            "evidence": {},
            "qualityFlags": [],
        },
    ]
    projects = models(TransmissionProject, projects)
    frame = projects_frame(projects)
    assert frame.loc[0, "counties"] == "Travis, Hays"
    assert frame.loc[0, "sourceUrl"] == "https://e.test/t1"
    assert frame.loc[0, "qualityFlags"] == "X"
    assert county_options(projects) == ["Bastrop", "Hays", "Travis"]
    timeline = timeline_frame(frame)
    assert timeline["which"].tolist() == [
        "projected in service",
        "projected in service",
        "actually in service",
    ]


def test_progress_text():
    assert (
        progress_text("queue records", 1500, 3)
        == "Loading queue records: 1,500 records so far (3 pages)"
    )
    assert progress_text("x", 10, 1).endswith("(1 page)")
