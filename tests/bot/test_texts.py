# ruff: noqa: E501 (a message is one line of text, compared whole)
"""Every message that names a player, in both languages, as the bot renders it: exact texts.

A Telegram name cannot be declined, so the texts put it where the nominative
reads right (after a colon, as the subject, in a list); the names here are
Cyrillic, Latin, one ending in a digit and one made of HTML's special characters.
"""

from __future__ import annotations

from html import escape

import pytest

from bot import keyboards, render
from bot.i18n import I18n
from bot.models import Lang
from engine import Match
from tests.bot.texts_cases import forty_two_in_play, record_of, render_all

NAMES = [("Аня", "Piotr"), ("Player 2", "<b>&"), ("Piotr", "Аня")]


def expected_ru(A: str, B: str) -> dict[str, str]:
    return {
        "challenge-anyone": (
            f"🎲 <b>{A}</b> ищет соперника: Бинго, до 8 зачётных очков.\nВызов действует 10 минут."
            "\nНе хочешь ждать? Автор вызова может сыграть с компьютером — кнопки 🤖 ниже."
        ),
        "challenge-invite": (
            f"🎲 <b>{A}</b> бросает вызов. Соперник: <b>{B}</b>. Бинго, до 8 зачётных очков.\nВызов действует 10 минут."
            "\nНе хочешь ждать? Автор вызова может сыграть с компьютером — кнопки 🤖 ниже."
        ),
        "challenge-withdrawn": (f"✖ Вызов отозван. Автор вызова: {A}."),
        "challenge-cancelled": (f"✖ Вызов снят администратором. Автор вызова: {A}."),
        "challenge-expired": (f"⌛ Вызов истёк — его никто не принял. Автор вызова: {A}."),
        "challenge-accepted": (
            f"🎲 Матч начался: <b>{A}</b> и <b>{B}</b> — Бинго, до 8 зачётных очков. Камни уже у каждого в личке с ботом."
        ),
        "bingo-table-claim": (
            f"<b>Бинго</b> · партия 1\n"
            f"Счёт матча: {A} — <b>0</b>, {B} — <b>0</b> · до 8\n"
            f"Козыри: шестёрки [6|2]\n"
            f"В резерве: 14 камней\n"
            f"📣 {A} объявляет 3 дубля: [6|6] [5|5] [4|4] — ждём исхода взятки\n"
            f"На столе: {A} [6|6]\n"
            f"Взятки — {A}: 0 · {B}: 0\n"
            f"▶️ Ход: <b>{B}</b>"
        ),
        "bingo-panel-claimed": (
            f"<b>Бинго</b> · партия 1 · соперник: {B}\n"
            f"Счёт матча: ты <b>0</b>, соперник <b>0</b> · до 8\n"
            f"Козыри: шестёрки [6|2]\n"
            f"В резерве: 14 камней\n"
            f"Твои очки: <b>0</b>/70 · взятки: ты 0, соперник 0\n"
            f"📣 {A} объявляет 3 дубля: [6|6] [5|5] [4|4] — ждём исхода взятки\n"
            f"⏳ {B} отвечает на твой [6|6]."
        ),
        "bingo-panel-to-answer": (
            f"<b>Бинго</b> · партия 1 · соперник: {A}\n"
            f"Счёт матча: ты <b>0</b>, соперник <b>0</b> · до 8\n"
            f"Козыри: шестёрки [6|2]\n"
            f"В резерве: 14 камней\n"
            f"Твои очки: <b>0</b>/70 · взятки: ты 0, соперник 0\n"
            f"Соперник показал: [6|6] [5|5] [4|4]\n"
            f"Твой ответ на [6|6]."
        ),
        "classic-table-claim": (
            f"<b>Бинго (бить обязательно)</b> · партия 1\n"
            f"Счёт матча: {A} — <b>0</b>, {B} — <b>0</b> · до 7\n"
            f"Козыри: шестёрки [6|2]\n"
            f"В резерве: 14 камней\n"
            f"📣 {A} объявляет 3 дубля («тройник»): [6|6] [5|5] [4|4] — ждём исхода взятки\n"
            f"На столе: {A} [6|6]\n"
            f"Взятки — {A}: 0 · {B}: 0\n"
            f"▶️ Ход: <b>{B}</b>"
        ),
        "bingo-table-closed": (
            f"<b>Бинго</b> · партия 1\n"
            f"Счёт матча: {A} — <b>0</b>, {B} — <b>0</b> · до 8\n"
            f"Козыри: шестёрки\n"
            f"🚧 Резерв закрыт — {A} обязуется набрать 70. Теперь ходим в масть.\n"
            f"📣 {A} объявляет 3 дубля: [6|6] [5|5] [4|4] — засчитано\n"
            f"На столе: {A} [4|3]\n"
            f"Предыдущая взятка: {A} [6|6] · {B} [4|1] → {A}\n"
            f"Взятки — {A}: 1 · {B}: 0\n"
            f"▶️ Ход: <b>{B}</b>"
        ),
        "bingo-panel-closed": (
            f"<b>Бинго</b> · партия 1 · соперник: {A}\n"
            f"Счёт матча: ты <b>0</b>, соперник <b>0</b> · до 8\n"
            f"Козыри: шестёрки\n"
            f"🚧 Резерв закрыт — {A} обязуется набрать 70. Теперь ходим в масть.\n"
            f"Твои очки: <b>0</b>/70 · взятки: ты 0, соперник 1\n"
            f"Соперник показал: [6|6] [5|5] [4|4]\n"
            f"Предыдущая взятка: {A} [6|6] · {B} [4|1] → {A}\n"
            f"Твой ответ на [4|3].\n"
            f"🚫 — этими камнями сейчас ходить нельзя (нажми — скажу почему)."
        ),
        "bingo-panel-clock": (
            f"<b>Бинго</b> · партия 1 · соперник: {A}\n"
            "Счёт матча: ты <b>0</b>, соперник <b>0</b> · до 8\n"
            "Козыри: шестёрки\n"
            f"🚧 Резерв закрыт — {A} обязуется набрать 70. Теперь ходим в масть.\n"
            "Твои очки: <b>0</b>/70 · взятки: ты 0, соперник 1\n"
            "Соперник показал: [6|6] [5|5] [4|4]\n"
            f"Предыдущая взятка: {A} [6|6] · {B} [4|1] → {A}\n"
            "Твой ответ на [4|3].\n"
            "🚫 — этими камнями сейчас ходить нельзя (нажми — скажу почему).\n"
            "⏰ Время на ход: 10 минут — не успеешь, засчитают поражение."
        ),
        "match-forfeit": f"⏰ Ход не сделан вовремя — {A} проигрывает матч. Победа: <b>{B}</b> (6:4).",
        "match-abandoned": f"💤 Матч остановлен: слишком долго не было ходов. Счёт: {A} — <b>3</b>, {B} — <b>2</b>. Матч не засчитан, рейтинг не изменился; можно начинать новый: /play",
        "reminder-private": "⏰ Твой ход! Осталось времени: 5 минут. Не успеешь — засчитают поражение.",
        "reminder-group": f'⏰ <a href="tg://user?id=2">{B}</a>, твой ход — осталось времени: 5 минут.',
        "history-row-forfeit": f"28.05.2026 · Бинго: {A} <b>4:6</b> {B} — победа: {B} (время вышло)",
        "history-row-abandoned": f"28.05.2026 · Бинго: {A} <b>3:2</b> {B} — прерван, без рейтинга",
        "stats-match-row-abandoned": f"💤 28.05.2026 · Бинго: {A} <b>3:2</b> {B} (прерван, без рейтинга)",
        "refusal-follow": "Ходим в масть: на [4|3] нужны некозырные четвёрки — они у тебя есть.",
        "bingo-deal-result": (
            f"<b>Партия 1</b>: {A} — 91 очко, {B} — 0 очков.\n"
            f"{A} +3 зачётных очка: 70 очков набрано, у соперника ни одной взятки.\n"
            f"Счёт матча: {A} — <b>3</b>, {B} — <b>0</b>."
        ),
        "match-won": (f"🏆 <b>{A}</b> выигрывает матч <b>8:3</b>!"),
        "rating-change": (f"Рейтинг: {A} 1517 (+17), {B} 1483 (−17)."),
        "match-surrender": (f"🏳 {A} сдаётся. Победа: <b>{B}</b> (5:2)."),
        "surrender-confirm": (f"Сдаться? Соперник: {A}. Матч засчитается как поражение."),
        "need-start": (f"{A}, открой бота в личке, чтобы получить свои камни."),
        "player-blocked": (
            f"⚠️ {B}: бот заблокирован в личке, и камни туда не доходят. Матч ждёт — разблокируй бота и отправь ему /hand."
        ),
        "42-table-trumps": (
            f"<b>42 вдвоём</b> · партия 1\n"
            f"Счёт матча: {A} — <b>0</b>, {B} — <b>0</b> · до 7\n"
            f"Назначение козырей\n"
            f"Ставки: {A} 30, {B} пас\n"
            f"Контракт: {A} — 30\n"
            f"Взятки в доборе — {A}: 1 · {B}: 6\n"
            f"Предыдущая взятка: {B} [4|3] · {A} [4|4] → {A}\n"
            f"▶️ Ход: <b>{A}</b>"
        ),
        "42-table-play": (
            f"<b>42 вдвоём</b> · партия 1\n"
            f"Счёт матча: {A} — <b>0</b>, {B} — <b>0</b> · до 7\n"
            f"Розыгрыш\n"
            f"Ставки: {A} 30, {B} пас\n"
            f"Контракт: {A} — 30, козыри: пустышки\n"
            f"Предыдущая взятка: {A} [0|0] · {B} [5|0] → {A}\n"
            f"Взятки — {A}: 1 · {B}: 0\n"
            f"Очки — {A}: 6/30 · {B}: 0\n"
            f"▶️ Ход: <b>{A}</b>"
        ),
        "42-panel-play": (
            f"<b>42 вдвоём</b> · партия 1 · соперник: {A}\n"
            f"Счёт матча: ты <b>0</b>, соперник <b>0</b> · до 7\n"
            f"Розыгрыш\n"
            f"Ставки: {A} 30, {B} пас\n"
            f"Контракт: {A} — 30, козыри: пустышки\n"
            f"Очки: ты <b>0</b>, соперник <b>6/30</b> · взятки: ты 0, соперник 1\n"
            f"Предыдущая взятка: {A} [0|0] · {B} [5|0] → {A}\n"
            f"⏳ Ход соперника: {A}."
        ),
        "42-deal-result": (
            f"<b>Партия 1</b>: {A} — 20 очков, {B} — 12 очков.\n"
            f"{B} +1 зачётное очко: соперник не выполнил контракт 30 (20 очков).\n"
            f"Счёт матча: {A} — <b>0</b>, {B} — <b>1</b>."
        ),
        "42-all-passed": (f"Два паса — пересдача. Первая рука снова: {B}."),
        "top-row": (f"2. {B} — <b>1483</b> · побед: 1, поражений: 3, матчей: 4"),
        "history-row": (f"28.05.2026 · Бинго: {A} <b>2:5</b> {B} — победа: {B} (матч сдан)"),
        "stats-match-row": (f"❌ 28.05.2026 · Бинго: {A} <b>8:3</b> {B}"),
        "fair-seeds": (f"🌱 Зёрна: {A} — <code>ala &amp; kot</code>; {B} — <code>źdźbło</code>"),
        "fair-seeds-computer": (f"🌱 Зёрна: {A} — <code>ala &amp; kot</code>; {B} — без зерна"),
    }


def expected_pl(A: str, B: str) -> dict[str, str]:
    return {
        "challenge-anyone": (
            f"🎲 <b>{A}</b> szuka rywala: Bingo, do 8 dużych punktów.\nWyzwanie jest ważne przez 10 minut.\n"
            "Nie chcesz czekać? Autor wyzwania może zagrać z komputerem — przyciski 🤖 poniżej."
        ),
        "challenge-invite": (
            f"🎲 <b>{A}</b> rzuca wyzwanie. Rywal: <b>{B}</b>. Bingo, do 8 dużych punktów.\n"
            f"Wyzwanie jest ważne przez 10 minut.\n"
            "Nie chcesz czekać? Autor wyzwania może zagrać z komputerem — przyciski 🤖 poniżej."
        ),
        "challenge-withdrawn": (f"✖ Wyzwanie wycofane. Autor wyzwania: {A}."),
        "challenge-cancelled": (f"✖ Wyzwanie usunięte przez administratora. Autor wyzwania: {A}."),
        "challenge-expired": (f"⌛ Wyzwanie wygasło — nikt go nie przyjął. Autor wyzwania: {A}."),
        "challenge-accepted": (
            f"🎲 Mecz się zaczął: <b>{A}</b> i <b>{B}</b> — Bingo, do 8 dużych punktów. Każdy ma już swoje kamienie na prywatnym czacie z botem."
        ),
        "bingo-table-claim": (
            f"<b>Bingo</b> · rozdanie 1\n"
            f"Wynik meczu: {A} — <b>0</b>, {B} — <b>0</b> · do 8\n"
            f"Atu: szóstki [6|2]\n"
            f"W talonie: 14 kamieni\n"
            f"📣 {A} deklaruje 3 dublety: [6|6] [5|5] [4|4] — czekamy na wynik lewy\n"
            f"Na stole: {A} [6|6]\n"
            f"Lewy — {A}: 0 · {B}: 0\n"
            f"▶️ Ruch: <b>{B}</b>"
        ),
        "bingo-panel-claimed": (
            f"<b>Bingo</b> · rozdanie 1 · rywal: {B}\n"
            f"Wynik meczu: ty <b>0</b>, rywal <b>0</b> · do 8\n"
            f"Atu: szóstki [6|2]\n"
            f"W talonie: 14 kamieni\n"
            f"Twoje punkty: <b>0</b>/70 · lewy: ty 0, rywal 0\n"
            f"📣 {A} deklaruje 3 dublety: [6|6] [5|5] [4|4] — czekamy na wynik lewy\n"
            f"⏳ {B} odpowiada na twój [6|6]."
        ),
        "bingo-panel-to-answer": (
            f"<b>Bingo</b> · rozdanie 1 · rywal: {A}\n"
            f"Wynik meczu: ty <b>0</b>, rywal <b>0</b> · do 8\n"
            f"Atu: szóstki [6|2]\n"
            f"W talonie: 14 kamieni\n"
            f"Twoje punkty: <b>0</b>/70 · lewy: ty 0, rywal 0\n"
            f"Rywal pokazał: [6|6] [5|5] [4|4]\n"
            f"Twoja odpowiedź na [6|6]."
        ),
        "classic-table-claim": (
            f"<b>Bingo z przymusem przebicia</b> · rozdanie 1\n"
            f"Wynik meczu: {A} — <b>0</b>, {B} — <b>0</b> · do 7\n"
            f"Atu: szóstki [6|2]\n"
            f"W talonie: 14 kamieni\n"
            f"📣 {A} deklaruje 3 dublety („tercet”): [6|6] [5|5] [4|4] — czekamy na wynik lewy\n"
            f"Na stole: {A} [6|6]\n"
            f"Lewy — {A}: 0 · {B}: 0\n"
            f"▶️ Ruch: <b>{B}</b>"
        ),
        "bingo-table-closed": (
            f"<b>Bingo</b> · rozdanie 1\n"
            f"Wynik meczu: {A} — <b>0</b>, {B} — <b>0</b> · do 8\n"
            f"Atu: szóstki\n"
            f"🚧 Talon zamknięty — {A} musi zdobyć 70. Teraz trzeba dokładać do koloru.\n"
            f"📣 {A} deklaruje 3 dublety: [6|6] [5|5] [4|4] — zaliczone\n"
            f"Na stole: {A} [4|3]\n"
            f"Poprzednia lewa: {A} [6|6] · {B} [4|1] → {A}\n"
            f"Lewy — {A}: 1 · {B}: 0\n"
            f"▶️ Ruch: <b>{B}</b>"
        ),
        "bingo-panel-closed": (
            f"<b>Bingo</b> · rozdanie 1 · rywal: {A}\n"
            f"Wynik meczu: ty <b>0</b>, rywal <b>0</b> · do 8\n"
            f"Atu: szóstki\n"
            f"🚧 Talon zamknięty — {A} musi zdobyć 70. Teraz trzeba dokładać do koloru.\n"
            f"Twoje punkty: <b>0</b>/70 · lewy: ty 0, rywal 1\n"
            f"Rywal pokazał: [6|6] [5|5] [4|4]\n"
            f"Poprzednia lewa: {A} [6|6] · {B} [4|1] → {A}\n"
            f"Twoja odpowiedź na [4|3].\n"
            f"🚫 — tych kamieni nie możesz teraz zagrać (naciśnij, a powiem dlaczego)."
        ),
        "bingo-panel-clock": (
            f"<b>Bingo</b> · rozdanie 1 · rywal: {A}\n"
            "Wynik meczu: ty <b>0</b>, rywal <b>0</b> · do 8\n"
            "Atu: szóstki\n"
            f"🚧 Talon zamknięty — {A} musi zdobyć 70. Teraz trzeba dokładać do koloru.\n"
            "Twoje punkty: <b>0</b>/70 · lewy: ty 0, rywal 1\n"
            "Rywal pokazał: [6|6] [5|5] [4|4]\n"
            f"Poprzednia lewa: {A} [6|6] · {B} [4|1] → {A}\n"
            "Twoja odpowiedź na [4|3].\n"
            "🚫 — tych kamieni nie możesz teraz zagrać (naciśnij, a powiem dlaczego).\n"
            "⏰ Czas na ruch: 10 minut — nie zdążysz, przegrywasz mecz."
        ),
        "match-forfeit": f"⏰ Ruch nie został wykonany na czas — {A} przegrywa mecz. Wygrywa <b>{B}</b> (6:4).",
        "match-abandoned": f"💤 Mecz zatrzymany: zbyt długo nie było ruchów. Stan meczu: {A} — <b>3</b>, {B} — <b>2</b>. Mecz nierozstrzygnięty, ranking bez zmian; można zacząć nowy: /play",
        "reminder-private": "⏰ Twój ruch! Zostało czasu: 5 minut. Nie zdążysz — przegrywasz mecz.",
        "reminder-group": f'⏰ <a href="tg://user?id=2">{B}</a>, twój ruch — zostało czasu: 5 minut.',
        "history-row-forfeit": f"28.05.2026 · Bingo: {A} <b>4:6</b> {B} — wygrywa: {B} (czas minął)",
        "history-row-abandoned": f"28.05.2026 · Bingo: {A} <b>3:2</b> {B} — przerwany, bez rankingu",
        "stats-match-row-abandoned": f"💤 28.05.2026 · Bingo: {A} <b>3:2</b> {B} (przerwany, bez rankingu)",
        "refusal-follow": "Dokładamy do koloru: na [4|3] potrzebne są nieatutowe czwórki — masz je.",
        "bingo-deal-result": (
            f"<b>Rozdanie 1</b>: {A} — 91 punktów, {B} — 0 punktów.\n"
            f"{A} +3 duże punkty: zdobyto 70 punktów, rywal bez żadnej lewy.\n"
            f"Wynik meczu: {A} — <b>3</b>, {B} — <b>0</b>."
        ),
        "match-won": (f"🏆 <b>{A}</b> wygrywa mecz <b>8:3</b>!"),
        "rating-change": (f"Ranking: {A} 1517 (+17), {B} 1483 (−17)."),
        "match-surrender": (f"🏳 {A} poddaje się. Wygrywa <b>{B}</b> (5:2)."),
        "surrender-confirm": (f"Poddajesz się? Rywal: {A}. Mecz zostanie uznany za przegrany."),
        "need-start": (f"{A}, otwórz prywatny czat z botem, żeby dostać swoje kamienie."),
        "player-blocked": (
            f"⚠️ {B}: bot jest zablokowany na prywatnym czacie, więc kamienie tam nie docierają. Mecz czeka — odblokuj bota i wyślij mu /hand."
        ),
        "42-table-trumps": (
            f"<b>42 we dwoje</b> · rozdanie 1\n"
            f"Wynik meczu: {A} — <b>0</b>, {B} — <b>0</b> · do 7\n"
            f"Wybór atu\n"
            f"Odzywki: {A} 30, {B} pas\n"
            f"Kontrakt: {A} — 30\n"
            f"Lewy w dobieraniu — {A}: 1 · {B}: 6\n"
            f"Poprzednia lewa: {B} [4|3] · {A} [4|4] → {A}\n"
            f"▶️ Ruch: <b>{A}</b>"
        ),
        "42-table-play": (
            f"<b>42 we dwoje</b> · rozdanie 1\n"
            f"Wynik meczu: {A} — <b>0</b>, {B} — <b>0</b> · do 7\n"
            f"Rozgrywka\n"
            f"Odzywki: {A} 30, {B} pas\n"
            f"Kontrakt: {A} — 30, atu: mydła\n"
            f"Poprzednia lewa: {A} [0|0] · {B} [5|0] → {A}\n"
            f"Lewy — {A}: 1 · {B}: 0\n"
            f"Punkty — {A}: 6/30 · {B}: 0\n"
            f"▶️ Ruch: <b>{A}</b>"
        ),
        "42-panel-play": (
            f"<b>42 we dwoje</b> · rozdanie 1 · rywal: {A}\n"
            f"Wynik meczu: ty <b>0</b>, rywal <b>0</b> · do 7\n"
            f"Rozgrywka\n"
            f"Odzywki: {A} 30, {B} pas\n"
            f"Kontrakt: {A} — 30, atu: mydła\n"
            f"Punkty: ty <b>0</b>, rywal <b>6/30</b> · lewy: ty 0, rywal 1\n"
            f"Poprzednia lewa: {A} [0|0] · {B} [5|0] → {A}\n"
            f"⏳ Ruch rywala: {A}."
        ),
        "42-deal-result": (
            f"<b>Rozdanie 1</b>: {A} — 20 punktów, {B} — 12 punktów.\n"
            f"{B} +1 duży punkt: rywal nie ugrał kontraktu 30 (20 punktów).\n"
            f"Wynik meczu: {A} — <b>0</b>, {B} — <b>1</b>."
        ),
        "42-all-passed": (f"Dwa pasy — rozdanie od nowa. Znowu zaczyna: {B}."),
        "top-row": (f"2. {B} — <b>1483</b> · wygrane: 1, przegrane: 3, mecze: 4"),
        "history-row": (f"28.05.2026 · Bingo: {A} <b>2:5</b> {B} — wygrywa: {B} (poddanie)"),
        "stats-match-row": (f"❌ 28.05.2026 · Bingo: {A} <b>8:3</b> {B}"),
        "fair-seeds": (f"🌱 Ziarna: {A} — <code>ala &amp; kot</code>; {B} — <code>źdźbło</code>"),
        "fair-seeds-computer": (f"🌱 Ziarna: {A} — <code>ala &amp; kot</code>; {B} — bez ziarna"),
    }


EXPECTED = {"ru": expected_ru, "pl": expected_pl}
CASES = [(lang, a, b) for lang in ("ru", "pl") for a, b in NAMES]


class TestNamedTexts:
    """Each text that names a player reads exactly as written here, whatever the names."""

    @pytest.mark.parametrize(("lang", "a", "b"), CASES, ids=[f"{lang}:{a}+{b}" for lang, a, b in CASES])
    def test_exact(self, lang: Lang, a: str, b: str) -> None:
        """The rendered texts equal the expected ones, the names escaped for HTML."""
        rendered = render_all(I18n()[lang], a, b)
        expected = EXPECTED[lang](escape(a), escape(b))
        assert sorted(rendered) == sorted(expected)
        for case, text in rendered.items():
            assert text == expected[case], case


class TestFortyTwoPanels:
    """42's panels show the hand once and only the tricks of the phase being played."""

    def test_hand_once_while_bidding(self) -> None:
        """The bidder reads the hand above the bid buttons; the waiting player has it as buttons only."""
        tr = I18n()["ru"]
        deal = Match.new("42", seed=5).deal
        while deal.view(None).phase.value == "draw":
            deal.play(deal.legal_actions()[0])
        record = record_of(deal, "Аня", "Piotr")
        bidder = deal.turn
        for seat in (0, 1):
            view = deal.view(seat)
            text = render.panel_text(tr, record, view)
            markup = keyboards.panel_keyboard(tr, "m", 1, view)
            assert markup is not None
            labels = [b.text for row in markup.inline_keyboard for b in row]
            shows_tiles = any(render.tile(t) in labels for t in view.hand)
            assert ("Твои камни:" in text) is (seat == bidder)
            assert shows_tiles is (seat != bidder)

    def test_no_draw_trick_in_play(self) -> None:
        """Once trumps are named, the draw's last trick leaves the table and the panels."""
        tr = I18n()["ru"]
        deal = forty_two_in_play()
        record = record_of(deal, "Аня", "Piotr")
        assert "Предыдущая взятка" in render.table_text(tr, record, deal.view(None))
        deal.play("T0")
        assert "Предыдущая взятка" not in render.table_text(tr, record, deal.view(None))
        assert all("Предыдущая взятка" not in render.panel_text(tr, record, deal.view(s)) for s in (0, 1))


class TestRefusalTexts:
    """A tile refused for a duty to follow names the led tile and the suit it asks for."""

    def test_every_follow_rule(self) -> None:
        """Over random matches of every preset, each refused tile's text names the led tile; all four rules
        (follow suit, beat, lower half, trump) come up, and a trump led in 42 asks for a trump."""
        import random

        from bot.games import PRESETS
        from engine import Action, Kind

        tr = I18n()["ru"]
        seen: set[str] = set()
        for preset in sorted(PRESETS):
            rng = random.Random(preset)
            for seed in range(6):
                match = Match.new(preset, seed=seed, target=3)
                while not match.is_over:
                    deal, seat = match.deal, match.turn
                    assert seat is not None
                    view = deal.view(seat)
                    legal = set(match.legal_actions())
                    for t in view.hand:
                        action = Action(Kind.PLAY, t.index)
                        if action in legal or view.lead is None:
                            continue
                        refusal = deal.refusal(action)
                        text = render.refusal_text(tr, refusal, view)
                        assert render.tile(view.lead) in text, text
                        trump_led = preset == "42" and view.trump in (view.lead.high, view.lead.low)
                        key = "must_trump" if trump_led else refusal.value
                        if key == "must_trump":
                            assert f"({tr('suit', suit=view.trump)})" in text, text
                        elif key == "must_follow_suit":
                            led = view.lead.high if preset == "42" or view.lead.low else 0
                            assert f"некозырные {tr('suit', suit=led)}" in text, text
                        elif key == "must_follow_lower_half":
                            assert f"камень с {view.lead.high if view.lead.low == 0 else view.lead.low} (" in text
                        seen.add(key)
                    match.play(rng.choice(match.legal_actions()))
        assert seen == {"must_follow_suit", "must_beat", "must_follow_lower_half", "must_trump"}


class TestDurations:
    """A span of time as a player says it: the largest unit, whole, rounded (half up) above a minute and an hour."""

    @pytest.mark.parametrize(
        ("seconds", "args"),
        [
            (0, {"unit": "s", "n": 0}),
            (45, {"unit": "s", "n": 45}),
            (60, {"unit": "m", "n": 1}),
            (90, {"unit": "m", "n": 2}),
            (600, {"unit": "m", "n": 10}),
            (3569, {"unit": "m", "n": 59}),
            (3599, {"unit": "h", "n": 1}),
            (5400, {"unit": "h", "n": 2}),
            (82860, {"unit": "h", "n": 23}),
            (86400, {"unit": "d", "n": 1}),
            (90000, {"unit": "h", "n": 25}),
            (172800, {"unit": "d", "n": 2}),
        ],
    )
    def test_args(self, seconds: float, args: dict[str, object]) -> None:
        assert render.duration_args(seconds) == args

    @pytest.mark.parametrize(
        ("lang", "seconds", "nominative", "accusative"),
        [
            ("ru", 60, "1 минута", "Вызов действует 1 минуту."),
            ("ru", 82860, "23 часа", "Вызов действует 23 часа."),
            ("pl", 60, "1 minuta", "Wyzwanie jest ważne przez 1 minutę."),
            ("pl", 3600, "1 godzina", "Wyzwanie jest ważne przez 1 godzinę."),
        ],
    )
    def test_cases(self, lang: Lang, seconds: float, nominative: str, accusative: str) -> None:
        """Alone (after a colon) in the nominative; the challenge's lifetime in the accusative."""
        tr = I18n()[lang]
        assert render.duration(tr, seconds) == nominative
        assert tr("challenge-expires", **render.duration_args(seconds)) == accusative
