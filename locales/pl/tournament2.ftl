# Tournaments: what the organiser or an admin may do (remove a player, stop it), pairings forfeited by busy
# players, leaving in one press.
words-tournament-kick = kick, remove, usuń, wyrzuć
words-tournament-stop = stop, zatrzymaj, zakończ
tournament-kick-who = Kogo usunąć z turnieju? Odpowiedz poleceniem /tournament kick na wiadomość gracza albo napisz /tournament kick @nick.
tournament-kick-not-entrant = { $name } nie gra w tym turnieju.
tournament-kicked = { $signup ->
    [yes] { $name } nie jest już na liście zapisanych na turniej.
   *[no] { $name } — już poza turniejem: wszystkie nierozegrane mecze (i bieżący, jeśli trwa) oddano rywalom walkowerem.
}
tournament-cancel-running = Turniej już trwa — nie można go odwołać, ale można go zatrzymać: /tournament stop. Opublikuję wtedy wyniki z chwili zatrzymania, a mistrza nie będzie.
tournament-ko-removed = { $a } — walkower ({ $b }: wykluczenie z turnieju)
tournament-busy-forfeit = ⌛ Turniej: { $name } zbyt długo gra inny mecz na tym czacie — dłużej niż czas na ruch ({ $clock }). Walkower — wygrywa <b>{ $opponent }</b>.
tournament-busy-both-rr = ⌛ Turniej: { $a } i { $b } zbyt długo grają inne mecze na tym czacie — dłużej niż czas na ruch ({ $clock }). Ich mecz się nie odbył, nikt nie wygrywa.
tournament-busy-both-ko = ⌛ Turniej: { $a } i { $b } zbyt długo grają inne mecze na tym czacie — dłużej niż czas na ruch ({ $clock }). Dalej bez gry przechodzi <b>{ $winner }</b>: ma wyższe rozstawienie.
tournament-stopped = ⏹ { $name } zatrzymuje turniej przed czasem — bez mistrza.
tournament-stopped-announce = ⏹ { $name } zatrzymuje turniej przed czasem — bez mistrza. { $game }, { tournament-players }. { $format ->
    [rr] Tabela
   *[ko] Drabinka
} w chwili zatrzymania:
toast-tournament-left-now = 🚪 Nie jesteś już w turnieju: wszystkie twoje nierozegrane mecze turnieju (i bieżący, jeśli trwa) oddano rywalom walkowerem.
tournament-none = Na tym czacie nie ma teraz turnieju. /tournament — otwórz zapisy, /tournament 42 — turniej w inną grę.
