import marimo

__generated_with = "0.25.2"
app = marimo.App(width="full", app_title="Langfinger")


@app.cell
def _():
    import html

    import marimo as mo

    import langfinger_widget as lf

    return html, lf, mo


@app.cell
def _(mo):
    mo.md("""
    # Langfinger in marimo

    The same board as in Jupyter: click it to play seat 0 against two bots, or choose
    another game with **New game**. The table below the board is an ordinary marimo cell
    that reads the game back, and runs again after every move, yours and the bots'.
    `marimo edit notebooks/marimo_langfinger.py` to change it,
    `marimo run notebooks/marimo_langfinger.py` to play.
    """)
    return


@app.cell
def _(lf, mo):
    game = lf.LangfingerWidget(players=3, seat=0, pace=0.4)
    # A move changes the widget's traits in Python (the click's message, or a bot on the event
    # loop), and marimo's reactive graph does not watch traits: it re-runs cells when a
    # variable is defined again, when a UI element's value is set by the page, or when a
    # `mo.state` setter is called. So the widget's own observer calls a setter with the seat's
    # view, and the cells that read `get_view()` run again after every move.
    get_view, set_view = mo.state(game.view)
    game.observe(lambda change: set_view(change["new"]), names="view")
    return game, get_view


@app.cell
def _(game, mo):
    mo.ui.anywidget(game)  # the board; clicks reach `game` as the widget's own messages
    return


@app.cell
def _(game, get_view, html, mo):
    _view = get_view()  # what seat 0 may see, nothing more
    # Oh My Goods! names the seats deciding (several at once while they plan, G6.1).
    _deciding = _view["to_decide"] if _view.get("game") == "goods" else [_view["to_move"]]
    # New game may deal Crooks: its players have cash and crooks at the targets instead.
    if _view.get("game") == "goods":
        _columns = ["VP", "Coins", "Buildings"]
        _cells = [(p["vp"], p["coins"], len(p["buildings"])) for p in _view["players"]]
        _classes = ("vp", "coins", "buildings")
        _over, _round = _view["phase"] == "over", f"Round {_view['round']}, "
    elif _view.get("game") == "crooks":
        _columns = ["Cash", "Crooks placed", "Passed"]
        _cells = [
            (p["cash"], sum(len(t["rows"][p["seat"]]) for t in _view["targets"]),
             "yes" if p["passed"] else "no")
            for p in _view["players"]
        ]
        _classes = ("cash", "crooks", "passed")
        _over, _round = _view["step"] == "over", ""
    else:
        _columns = ["Money", "Tokens left", "Loot"]
        _cells = [(p["money"], p["tokens"], len(p["loot"])) for p in _view["players"]]
        _classes = ("money", "tokens", "loot")
        _over, _round = _view["is_over"], f"Round {_view['round']}, "
    _rows = "".join(
        f"<tr data-seat='{p['seat']}'><td>{html.escape(p['name'])}"
        f"{' (you)' if p['seat'] == _view['seat'] else ''}</td>"
        + "".join(f"<td class='{k}'>{v}</td>" for k, v in zip(_classes, row, strict=True))
        + "</tr>"
        for p, row in zip(_view["players"], _cells, strict=True)
    )
    _head = "".join(f"<th>{c}</th>" for c in ["Player", *_columns])
    _names = " and ".join(html.escape(_view["players"][s]["name"]) for s in _deciding)
    _status = "Game over" if _over else f"{_names} to move"
    mo.Html(
        f"""
        <p data-testid="progress">{_round}{game.move_number} moves played.
        {_status}.</p>
        <style>
          .lf-money-table {{ border-collapse: collapse; min-width: 24em; }}
          .lf-money-table th, .lf-money-table td {{
            padding: 4px 12px; border-bottom: 1px solid #ccc; text-align: left;
          }}
        </style>
        <table class="lf-money-table" data-testid="money-table">
          <thead><tr>{_head}</tr></thead>
          <tbody>{_rows}</tbody>
        </table>
        """
    )
    return


if __name__ == "__main__":
    app.run()
