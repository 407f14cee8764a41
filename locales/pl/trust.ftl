# Who may act on what: a challenge, a tournament, a match or a replay belongs to its own chat.

toast-not-member = Mogą z tego skorzystać tylko członkowie grupy, w której otwarto to wyzwanie lub turniej.
replay-not-member = Ten mecz mogą obejrzeć tylko jego gracze i członkowie grupy, w której go rozegrano.
toast-creator-playing = Autor wyzwania gra teraz inny mecz na tym czacie — wyzwanie poczeka, aż skończy.
toast-no-rematch-in-tournament = W turnieju nie ma rewanżu: kolejne pary ustala turniej.
