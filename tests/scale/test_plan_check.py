"""The scale bench's plan check (bench/scale_paths.py): a full read of a big table is reported.

What it checks, without a database, on plans as PostgreSQL's EXPLAIN prints them (text and
JSON): a Seq Scan on a table of more than 100,000 rows (``pg_class.reltuples``) is reported with
its row count, a parallel one too, one nested under joins too; an Index Scan on that table, a Seq
Scan on a table of 100,000 rows or fewer and one on a table whose size is unknown are not.
"""

from __future__ import annotations

import json

from bench.scale_paths import BIG_TABLE_ROWS, full_reads_of_big_tables, seq_scanned_tables

ROWS = {"games_hand": 213_251.0, "games_gameseat": 80_000.0, "clubs_club": 20.0}

TEXT_SEQ_SCAN = """\
Aggregate  (cost=60372.64..60372.65 rows=1 width=8)
  ->  Seq Scan on games_hand  (cost=0.00..59839.51 rows=213251 width=0)
        Filter: (game_id > 5)
"""

TEXT_PARALLEL_UNDER_JOIN = """\
Hash Join  (cost=1.45..41234.10 rows=10 width=12)
  Hash Cond: (games_hand.game_id = games_game.id)
  ->  Gather  (cost=0.00..41000.00 rows=213251 width=12)
        Workers Planned: 2
        ->  Parallel Seq Scan on games_hand  (cost=0.00..40000.00 rows=88855 width=12)
  ->  Hash  (cost=1.20..1.20 rows=20 width=8)
        ->  Seq Scan on clubs_club  (cost=0.00..1.20 rows=20 width=8)
"""

TEXT_INDEX_SCAN = """\
Limit  (cost=0.42..8.44 rows=1 width=1417)
  ->  Index Scan using games_hand_game_id_number on games_hand  (cost=0.42..8.44 rows=1 width=1417)
        Index Cond: ((game_id = 7) AND (number = 3))
"""

TEXT_SMALL_TABLES = """\
Nested Loop  (cost=0.00..2400.00 rows=80000 width=16)
  ->  Seq Scan on games_gameseat  (cost=0.00..1300.00 rows=80000 width=16)
  ->  Seq Scan on clubs_club  (cost=0.00..1.20 rows=20 width=8)
"""


def json_plan(node_type: str, relation: str) -> list:
    return [
        {
            "Plan": {
                "Node Type": "Nested Loop",
                "Plans": [
                    {"Node Type": "Seq Scan", "Relation Name": "clubs_club", "Alias": "c"},
                    {
                        "Node Type": "Limit",
                        "Plans": [
                            {"Node Type": node_type, "Relation Name": relation, "Alias": "h"}
                        ],
                    },
                ],
            }
        }
    ]


def test_the_limit_is_a_hundred_thousand_rows():
    assert BIG_TABLE_ROWS == 100_000


def test_a_seq_scan_on_a_big_table_in_a_text_plan_is_reported():
    assert full_reads_of_big_tables(TEXT_SEQ_SCAN, ROWS) == [("games_hand", 213_251.0)]


def test_a_parallel_seq_scan_under_a_join_is_reported_and_the_small_table_is_not():
    assert seq_scanned_tables(TEXT_PARALLEL_UNDER_JOIN) == ["games_hand", "clubs_club"]
    assert full_reads_of_big_tables(TEXT_PARALLEL_UNDER_JOIN, ROWS) == [("games_hand", 213_251.0)]


def test_an_index_scan_on_a_big_table_is_not_reported():
    assert seq_scanned_tables(TEXT_INDEX_SCAN) == []
    assert full_reads_of_big_tables(TEXT_INDEX_SCAN, ROWS) == []


def test_seq_scans_on_tables_of_at_most_the_limit_are_not_reported():
    assert seq_scanned_tables(TEXT_SMALL_TABLES) == ["games_gameseat", "clubs_club"]
    assert full_reads_of_big_tables(TEXT_SMALL_TABLES, ROWS) == []
    assert full_reads_of_big_tables(TEXT_SMALL_TABLES, {"games_gameseat": 100_000.0}) == []
    assert full_reads_of_big_tables(TEXT_SMALL_TABLES, {"games_gameseat": 100_001.0}) == [
        ("games_gameseat", 100_001.0)
    ]


def test_a_json_plan_with_a_nested_seq_scan_on_a_big_table_is_reported():
    plan = json_plan("Seq Scan", "games_hand")
    assert full_reads_of_big_tables(plan, ROWS) == [("games_hand", 213_251.0)]
    assert full_reads_of_big_tables(json.dumps(plan), ROWS) == [("games_hand", 213_251.0)]


def test_a_json_plan_with_an_index_scan_on_the_big_table_is_not_reported():
    plan = json_plan("Index Scan", "games_hand")
    assert seq_scanned_tables(plan) == ["clubs_club"]
    assert full_reads_of_big_tables(plan, ROWS) == []


def test_a_table_of_unknown_size_counts_as_small():
    assert full_reads_of_big_tables(TEXT_SEQ_SCAN, {}) == []
