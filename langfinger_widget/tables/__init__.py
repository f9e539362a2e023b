"""Headless drivers any front end uses: the table (seats, bots, turns), the scheduler that
paces them, the runtime they run in, and the replay of a record."""
