"""The boards: the widget, the replay board and the puzzle board.

The only floor that imports anywidget, traitlets or ipywidgets.
"""
