"""The page model filled from a finished tournament's folder (games.jsonl and its standings), for
`td-runner standings DIR --html OUT`. A tournament has no events, and an entrant one version; its matches
are numbered 1, 2, ... in schedule order. A player page charts the entrant's rating after each event that
rated it, as the standings computed it (in schedule order); a folder read from its standings.json alone (no
games.jsonl or settings) has no history, so its pages have no chart."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from runner.league.web.league_data import FAULTS_SHOWN, fault_rows, inside
from runner.league.standings import StandingRow
from runner.league.web.model import ChartPoint, Crosstable, Event, Fault, Info, MatchRow, PlayerPage, Seat, Version
from runner.tournament.grades import bot_json, build_sheet, pairwise, text_field, tournament_field
from runner.tournament.rankstats import rank_ranges
from runner.tournament.records import GameRecord, read_counted
from runner.tournament.run import BOTS, SETTINGS_FILE
from runner.tournament.schedule import SIDED_GAMES
from runner.tournament.standings import Standings

#: At most this many of an entrant's matches are listed on its page.
PLAYER_MATCHES_SHOWN = 30


def _faults(row: dict[str, Any]) -> int:
    """A tournament's "faults", as a league's: time-outs, crashes, refused answers, failures to start,
    disqualifications (standings.json written before the invalid count has none: 0)."""
    return (row.get("timeouts", 0) + row.get("crashes", 0) + row.get("invalid", 0) + row.get("cannot_start", 0)
            + row.get("disqualified", 0))


class TournamentSource:
    def __init__(self, folder: Path) -> None:
        from runner.commands.standings import load  # the standings as `td-runner standings` prints them

        self.folder = Path(folder)
        loaded = load(self.folder)
        self.data: dict[str, Any] = loaded.to_json() if isinstance(loaded, Standings) else loaded
        self.history = loaded.history if isinstance(loaded, Standings) else {}
        self.records: list[GameRecord] = sorted(read_counted(self.folder), key=lambda r: (r.index, r.match))
        self.sided = self.data.get("game") in SIDED_GAMES

    def info(self) -> Info:
        game = str(self.data.get("game", "?"))
        return Info(title=f"{game} tournament", game=game, matches=len(self.records), state="finished",
                    has_events=False)

    def standings(self) -> list[StandingRow]:
        return [StandingRow(name=row["name"], player_id=0, version=None, version_id=0, hash=row["hash"],
                            role=row.get("role") or "", mu=row["mu"], sigma=row["sigma"], games=row["games"],
                            wins=row["wins"], draws=row["draws"], losses=row["losses"], faults=_faults(row),
                            status="", reason=None, retired=False, mean_turns=row.get("mean_turns"))
                for row in self.data.get("rows", [])]

    def ranks(self) -> dict[tuple[str, str], str]:
        """(hash, role) -> its rank on the standings page: the range of places the games allow (bootstrap
        rank ranges, as `td-runner grades`; in a sided game within each role); each role's plain order for
        a folder read from its standings.json alone."""
        rows = self.data.get("rows", [])
        if self.sided and self.records and (self.folder / SETTINGS_FILE).is_file():
            sheet = build_sheet(tournament_field(self.folder))
            return {(row.hash, row.role or ""): row.rank for row in sheet.rows}
        if self.sided or not self.records:
            places: dict[str, int] = {}
            ranks = {}
            for row in rows:
                role = row.get("role") or ""
                places[role] = places.get(role, 0) + 1
                ranks[(row["hash"], role)] = str(places[role])
            return ranks
        ranges = rank_ranges([row["hash"] for row in rows], pairwise(self.records))
        return {(bot, ""): str(best) if best == worst else f"{best}-{worst}" for bot, (best, worst) in ranges.items()}

    def standings_json(self) -> dict[str, Any]:
        return self.data

    def _row(self, number: int, record: GameRecord) -> MatchRow:
        places = {seat: index for index, group in enumerate(record.ranking, 1) for seat in group}
        seats = tuple(Seat(seat.bot, None, places.get(seat.seat), seat.seat if self.sided else "")
                      for seat in record.seats)
        return MatchRow(id=number, finished=None, seats=seats, end_reason=record.end_reason, rounds=record.rounds,
                        wall_seconds=record.wall_seconds, replay=self.match_log(number) is not None,
                        note=record.forfeit or record.unfinished)

    def recent_matches(self, limit: int) -> list[MatchRow]:
        first = max(0, len(self.records) - limit)
        return [self._row(number, self.records[number - 1]) for number in range(len(self.records), first, -1)]

    def crosstable(self) -> Crosstable:
        cross = self.data.get("crosstable", {})
        cells = {(name, other): (cell["wins"], cell["draws"], cell["losses"])
                 for name, row in cross.items() for other, cell in row.items()}
        return Crosstable(tuple(self.player_names()), cells)

    def events(self, limit: int) -> list[Event]:
        return []

    def player_names(self) -> list[str]:
        return list(dict.fromkeys(row["name"] for row in self.data.get("rows", [])))

    def player(self, name: str) -> PlayerPage | None:
        rows = [row for row in self.data.get("rows", []) if row["name"] == name]
        if not rows:
            return None
        numbers = {bot_hash: number for number, bot_hash in enumerate(dict.fromkeys(row["hash"] for row in rows), 1)}
        charts: dict[str, list[ChartPoint]] = {}  # per role; two bots of one name share it, in match order
        for row in rows:
            key = (row["hash"], row.get("role") or None)
            if key in self.history:
                chart = charts.setdefault(row.get("role") or "", [])
                points = self.history[key][1 if chart else 0:]  # one starting point per chart
                chart.extend(ChartPoint(match, mu, sigma, numbers[row["hash"]]) for match, mu, sigma in points)
        versions = []
        for bot_hash, number in numbers.items():
            mine = [row for row in rows if row["hash"] == bot_hash]
            described = bot_json(self.folder / BOTS / bot_hash)  # the entrant's snapshot
            versions.append(Version(number=number, hash=bot_hash, created=None, status="", reason=None,
                                    build_output=None, nick=text_field(described, "nickName") or name,
                                    language=text_field(described, "botLanguage"),
                                    games=sum(row["games"] for row in mine), wins=sum(row["wins"] for row in mine),
                                    draws=sum(row["draws"] for row in mine),
                                    losses=sum(row["losses"] for row in mine), faults=sum(map(_faults, mine))))
        played = [(number, record) for number, record in enumerate(self.records, 1)
                  if any(seat.bot == name for seat in record.seats)]
        faults: list[Fault] = []
        for number, record in reversed(played):
            for seat in record.seats:
                if seat.bot == name:
                    faults.extend(fault_rows(number, None, list(seat.faults)))
        return PlayerPage(name=name, retired=False, versions=tuple(versions),
                          charts=tuple((role, tuple(sorted(points, key=lambda point: point.match)))
                                       for role, points in sorted(charts.items())),
                          matches=tuple(self._row(number, record)
                                        for number, record in reversed(played[-PLAYER_MATCHES_SHOWN:])),
                          faults=tuple(faults[:FAULTS_SHOWN]))

    def match_ids(self) -> list[int]:
        return [number for number in range(1, len(self.records) + 1) if self.match_log(number) is not None]

    def match_log(self, match: int) -> Path | None:
        if not 1 <= match <= len(self.records) or self.records[match - 1].log is None:
            return None
        path = inside(self.folder, self.records[match - 1].log)
        return path if path is not None and path.is_dir() else None
