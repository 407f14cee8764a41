"""The table as a Telegram Mini App: the page (``static/``), its server (``server``), what it shows a viewer
(``state``), who is signed in (``auth``), its live pushes (``live``) and the buttons that open it (``links``).
docs/miniapp.md says how it fits together."""
