"""Browser steps shared by the notes tests (the explorer's and the tables'): the notes shown under a
step of the event log, and a note pinned to a step as a person pins it."""

from __future__ import annotations

from playwright.sync_api import Page, expect

#: Defines ``DataEvent`` (the message a click on the event log's line sends, with ``data``) and finds the
#: page's event log (``log``): the start of a script that fires the log's own messages from the console.
LOG_EVENT_JS = """
  const {ModelEvent} = Bokeh.require("core/bokeh_events");
  class DataEvent extends ModelEvent {
    constructor(data) { super(); this.data = data; }
    get event_values() { return {model: this.origin, data: this.data}; }
  }
  DataEvent.prototype.event_name = "data_event";
  const log = [...Bokeh.documents[0].all_models].find((m) => m.data && m.data.type && m.data.type.startsWith("LogList"));
"""


def notes_at(page: Page, step: int):
    return page.locator(f'.event-log .step[data-step="{step}"] .note')


def pin(page: Page, step: int, note: str) -> None:
    """Click step ``step``'s line in the event log, type the note, pin it."""
    page.locator(f'.event-log .step[data-step="{step}"] .step-no').click()
    expect(page.locator(".note-heading")).to_contain_text(f"step {step} ")
    page.locator(".note-text textarea").fill(note)
    page.locator(".pin-note button").click()
    expect(page.locator(".note-message")).to_contain_text(f"Note pinned to step {step}")
