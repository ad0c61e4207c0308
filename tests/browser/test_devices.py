"""Playing from any device (issue 16): a friend's device joins through the invite link on the
server's public address, each link has its QR code, a wrong or used invite link says so, and
on a phone every control of the chrome is at least 44 × 44 CSS px.

The public address is another loopback address, 127.0.0.2 (``serve --lan`` listens on every
address of the machine; the tests send nothing but to 127.0.0.x)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.conftest import ARTIFACTS, KOREAN_FONTS, ROOT, Console, Server, free_port
from tests.browser.touch import CENTRIX_VS_BOT, PHONE, cut_off, report, too_small
from tests.web.bodies import CENTRIX_INVITE

NewPage = Callable[..., Page]
SCREENSHOTS = ROOT / "docs" / "screenshots"
LOCALES = {"en": "en-US", "ko": "ko-KR"}


def docs_shot(page: Page, screen: str, lang: str, at: str | None = None) -> None:
    """A screenshot for the README (docs/screenshots/devices-<screen>.<lang>.png), of the
    first screen or, given ``at``, of the screen from that element down."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    if at is not None:
        page.locator(at).evaluate(
            "node => window.scrollTo(0, node.getBoundingClientRect().top + window.scrollY - 8)"
        )
    page.screenshot(path=str(SCREENSHOTS / f"devices-{screen}.{lang}.png"))
    page.screenshot(path=str(ARTIFACTS / f"devices-{screen}-{lang}.png"))


@pytest.fixture(scope="module")
def lan_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``gamenight serve --lan`` whose public address is http://127.0.0.2:PORT."""
    port = free_port()
    running = Server(
        tmp_path_factory.mktemp("gamenight-lan"),
        port,
        options=("--lan",),
        environment={"GAMENIGHT_PUBLIC_URL": f"http://127.0.0.2:{port}"},
    )
    running.start()
    yield running
    running.stop()


def qr_drawn(page: Page, selector: str) -> bool:
    """The QR code's image has loaded (it is fetched after its row appears, so wait for it)."""
    script = (
        "s => { const img = document.querySelector(s);"
        " return !!img && img.complete && img.naturalWidth > 0; }"
    )
    try:
        page.wait_for_function(script, arg=selector, timeout=15_000)
    except PlaywrightTimeoutError:
        return False
    return True


def set_up_with_an_invite(page: Page, base: str) -> str:
    """Ann on this device and Bo invited, made on the home page; the invite link shown."""
    page.goto(base)
    page.select_option("#seat-1-kind", "invite")
    page.fill("#seat-1-name", "Bo")
    page.click("#start")
    link = page.locator("#invite-list .invite-row[data-seat='1'] input")
    public = re.escape(f"http://127.0.0.2:{base.rsplit(':', 1)[1]}/table/")
    expect(link).to_have_value(re.compile(rf"^{public}[A-Za-z0-9_-]+#token=[A-Za-z0-9_-]+$"))
    return str(link.input_value())


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_friend_joins_through_the_invite_link_on_the_public_address(
    lan_server: Server, new_page: NewPage, lang: str
) -> None:
    host = new_page(locale=LOCALES[lang])
    link = set_up_with_an_invite(host, lan_server.url)  # the host's page is on 127.0.0.1
    assert qr_drawn(host, "#invite-list .invite-row[data-seat='1'] .invite-qr")
    host.click("#go-table")
    host.wait_for_selector(".turn-banner")
    host.click("#show-invites")
    dialog = host.locator("#dialog")
    expect(dialog.locator(".invite-row[data-seat='1'] input")).to_have_value(link)
    expect(dialog.locator(".invite-qr")).to_have_count(2)  # Bo's link and the spectator link
    host.wait_for_function(
        "() => [...document.querySelectorAll('#dialog .invite-qr')]"
        ".every((img) => img.complete && img.naturalWidth > 0)"
    )
    assert (
        dialog.locator(".invite-row[data-spectator] input")
        .input_value()
        .startswith(f"http://127.0.0.2:{lan_server.port}/table/")
    )
    docs_shot(host, "invite-dialog", lang)
    # Another device opens the link at the public address and takes Bo's seat.
    guest = new_page(locale=LOCALES[lang])
    guest.goto(link)
    guest.wait_for_function("() => document.body.dataset.seats === '1'")
    assert guest.evaluate("location.host") == f"127.0.0.2:{lan_server.port}"
    guest.wait_for_selector(".turn-banner")


def test_the_qr_code_is_only_for_our_links(
    lan_server: Server, new_page: NewPage, console: Console
) -> None:
    console.allowed.append("status of 422")  # the refusal asked for
    page = new_page()
    page.goto(lan_server.url)
    answer = page.evaluate(
        "async () => { const r = await fetch('/api/qr?text=' + encodeURIComponent("
        "'https://elsewhere.example/table/x#token=y')); return [r.status, await r.json()]; }"
    )
    assert answer[0] == 422
    assert answer[1]["code"] == "not_our_link"


def open_link(page: Page, server: Server, table: str, token: str) -> None:
    page.goto(f"{server.url}/table/{table}#token={token}")


@pytest.mark.parametrize("lang", ["en", "ko"])
def test_a_wrong_invite_link_says_so_and_offers_to_watch_a_public_table(
    server: Server, new_page: NewPage, lang: str
) -> None:
    made = server.create({**CENTRIX_INVITE, "visibility": "public"})
    page = new_page(locale=LOCALES[lang], **PHONE)
    open_link(page, server, made["id"], "not-the-link")
    problem = page.locator("#problem")
    expect(problem.locator("h1")).to_have_text(
        "This invite link does not open a seat"
        if lang == "en"
        else "이 초대 링크로는 자리에 앉을 수 없어요"
    )
    expect(problem).to_contain_text("mistyped" if lang == "en" else "잘못 입력")
    assert too_small(page) == [], "\n".join(report(page, "the wrong-invite page"))
    docs_shot(page, "wrong-invite", lang)
    # The link opened nothing, and is not kept: watching is the guest's choice.
    held = page.evaluate(f"localStorage.getItem('gamenight.tokens.{made['id']}')")
    assert held == "{}", "the wrong link is not kept"
    page.click("#watch-instead")
    page.wait_for_selector(".turn-banner")
    page.wait_for_function("() => document.body.dataset.seats === ''")


def test_a_used_or_renewed_invite_link_says_so(server: Server, new_page: NewPage) -> None:
    made = server.create(CENTRIX_INVITE)  # unlisted: nobody else may watch
    invite = made["seats"][1]["token"]
    first = new_page()
    open_link(first, server, made["id"], invite)
    first.wait_for_function("() => document.body.dataset.seats === '1'")
    # The same device coming back through the link still has its seat.
    open_link(first, server, made["id"], invite)
    first.wait_for_function("() => document.body.dataset.seats === '1'")
    assert first.locator("#problem").count() == 0
    late = new_page()
    open_link(late, server, made["id"], invite)
    expect(late.locator("#problem")).to_contain_text("already used on another device")
    expect(late.locator("#problem")).to_contain_text(
        "Only its players and those with its spectator"
    )
    assert late.locator("#watch-instead").count() == 0
    # Renewed by its maker: the old link has expired.
    renewed = late.evaluate(
        "async ([table, renew]) => (await fetch(`/api/tables/${table}/invites/1`, {method: 'POST',"
        " headers: {'Content-Type': 'application/json'}, body: JSON.stringify({renew})})).ok",
        [made["id"], made["seats"][1]["renew"]],
    )
    assert renewed
    expired = new_page(locale="ko-KR")
    open_link(expired, server, made["id"], invite)
    expect(expired.locator("#problem")).to_contain_text("만료된 링크예요")
    # The page speaks the language it is switched to.
    expired.click("#lang-switch")
    expect(expired.locator("#problem")).to_contain_text("It has expired")


def test_a_bad_table_id_says_so(server: Server, new_page: NewPage, console: Console) -> None:
    console.allowed.append("status of 404")  # the answers that tell there is no such table
    page = new_page()
    page.goto(f"{server.url}/table/no-such-table#token=abc")
    expect(page.locator("#problem h1")).to_have_text("There is no such table")
    expect(page.locator("#problem")).to_contain_text("There is no table “no-such-table”")
    page.click("#go-home")
    page.wait_for_selector("#setup")


@pytest.mark.parametrize(("lang", "font"), [("en", None), *[("ko", font) for font in KOREAN_FONTS]])
def test_on_a_phone_every_control_is_44_px_and_no_select_is_cut_off(
    lan_server: Server,
    new_page: NewPage,
    lang: str,
    font: str | None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    page = new_page(locale=LOCALES[lang], font=font, **PHONE)
    page.goto(lan_server.url)
    page.wait_for_selector("#seat-0-kind")
    lines: list[str] = []

    def measure(where: str) -> None:
        lines.extend(report(page, where))
        assert too_small(page) == [], "\n".join(lines)
        assert cut_off(page) == [], "\n".join(lines)

    measure("home, Centrix")
    page.click("#choose-colorcity")
    page.select_option("#seat-1-kind", "bot")  # a level and a skill side by side
    page.click(".variants summary")
    measure("home, Color City")
    # The README's screenshots are of the first Korean font's page.
    documented = font in (None, KOREAN_FONTS[0])
    if documented:
        docs_shot(page, "home-phone", lang, at="#setup-title")
    page.select_option("#seat-1-kind", "invite")
    page.click("#start")
    page.wait_for_selector("#invite-list .invite-qr")
    measure("home, the invitations")
    page.click("#go-table")
    page.wait_for_selector(".turn-banner")
    measure("table, Color City")
    # On a phone Color City's header keeps to one row: the table's links open from its
    # tools button (issue 30), itself a control measured here.
    page.click("#table-menu")
    measure("table, Color City, its tools")
    page.click("#show-invites")
    page.wait_for_selector("#dialog .invite-qr")
    measure("table, the invite dialog")
    if documented:
        docs_shot(page, "invite-dialog-phone", lang)
    # Centrix's choices once a card is chosen (its trays, by the board, are the board's own).
    made = lan_server.create(CENTRIX_VS_BOT)
    page.goto(f"{lan_server.url}/table/{made['id']}#token={made['seats'][0]['token']}")
    page.wait_for_selector(".turn-banner.mine")
    page.locator(".play-card:not([disabled])").first.click()
    lines.extend(report(page, "table, Centrix, a card chosen"))
    assert too_small(page, besides=("button.tray",)) == [], "\n".join(lines)
    page.goto(f"{lan_server.url}/replay/{made['id']}")
    page.wait_for_selector(".replay-controls .btn")
    measure("replay")
    page.goto(f"{lan_server.url}/rules/colorcity")
    page.wait_for_selector("#other-part")
    measure("rules")
    with capsys.disabled():
        print("\n" + "\n".join(lines))


def test_the_readme_says_how_friends_join() -> None:
    readme = (ROOT / "README.md").read_text()
    quickstart = readme.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    for words in ("gamenight serve --lan", "GAMENIGHT_PUBLIC_URL", "QR code"):
        assert words in quickstart, words
