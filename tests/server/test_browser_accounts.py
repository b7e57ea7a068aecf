"""Accounts in a real browser (Debian's chromium, Playwright): the account page and the header's
account corner, in five languages, on phones and laptops, with no serious axe violation; and a
signed-in browser plays as a guest does, its pages sending the session's CSRF token."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.server.browser import (
    LAPTOP,
    PHONE,
    Viewport,
    assert_no_serious_axe_violations,
    catalog,
    create_table,
    new_tab,
    open_lobby,
    screenshot,
    set_seat,
)
from tests.server.harness import ServerProcess
from tests.server.signin import PASSWORD, sign_up, unique_name
from tests.server.smtp import SmtpServer
from tests.server.test_server_account_mail import LINK

pytestmark = pytest.mark.browser

COOKIE = "eixample_session"


def account_words(lang: str) -> dict[str, Any]:
    """The account page's part of the web app's catalog of `lang`."""
    account: dict[str, Any] = catalog(lang)["account"]
    return account


def sign_up_by_page(tab: Any, server: ServerProcess, name: str, email: str = "") -> None:
    tab.goto(f"{server.url}/account")
    tab.wait_for_selector("body[data-ready='true']")
    tab.fill("#signup-name", name)
    tab.fill("#signup-password", PASSWORD)
    if email:
        tab.fill("#signup-email", email)
    tab.click("#signup-form button[type='submit']")
    tab.wait_for_selector(f"body[data-account='{name}']")


def fits_the_width(tab: Any) -> bool:
    return bool(tab.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_sign_up_sign_out_and_sign_in_by_the_pages(browser: Any, server: ServerProcess,
                                                   viewport: Viewport) -> None:
    tab = new_tab(browser, **viewport)
    try:
        tab.goto(f"{server.url}/")
        link = tab.locator("#account-slot a.account-link")
        assert link.inner_text() == "Sign in" and link.get_attribute("href") == "/account?next=%2F"
        name = unique_name("Núria")
        sign_up_by_page(tab, server, name)
        assert tab.locator("#settings-name").inner_text() == name
        assert fits_the_width(tab)
        screenshot(tab, f"account-settings-{viewport['width']}.png")
        tab.goto(f"{server.url}/")
        menu = tab.locator("#account-slot .account-menu")
        assert menu.locator(".account-name").inner_text() == name
        menu.locator("summary").click()
        assert menu.locator("a[href='/account']").is_visible()
        screenshot(tab, f"account-menu-{viewport['width']}.png")
        menu.locator(".account-sign-out").click()
        tab.wait_for_selector("#account-slot[data-signed-in='false'] a.account-link")

        tab.click("#account-slot a.account-link")
        tab.wait_for_selector("body[data-ready='true']")
        tab.fill("#signin-name", name.upper())
        tab.fill("#signin-password", "not the password")
        tab.click("#signin-form button[type='submit']")
        tab.wait_for_selector("#signin-error:text('Wrong user name or password.')")
        tab.fill("#signin-password", PASSWORD)
        tab.click("#signin-form button[type='submit']")
        tab.wait_for_url(f"{server.url}/")  # back where the sign-in began
        tab.wait_for_selector("#account-slot[data-signed-in='true']")
        assert fits_the_width(tab)
        assert not tab.problems, tab.problems
    finally:
        tab.context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "de", "ja", "cs"])
def test_the_account_page_speaks_five_languages(browser: Any, server: ServerProcess, lang: str) -> None:
    words = account_words(lang)
    tab = new_tab(browser, **PHONE)
    try:
        tab.goto(f"{server.url}/account?lang={lang}")
        tab.wait_for_selector("body[data-ready='true']")
        assert tab.locator("#signin-heading").inner_text() == words["signIn"]
        assert tab.locator("#signup-heading").inner_text() == words["signUp"]
        assert tab.locator("#signup-name-help").inner_text() == words["nameHelp"]
        tab.fill("#signup-name", "x")
        tab.fill("#signup-password", PASSWORD)
        tab.click("#signup-form button[type='submit']")
        expected = words["errors"]["account_name"].replace("{{min}}", "2").replace("{{max}}", "32")
        tab.wait_for_selector("#signup-error:not(:empty)")
        assert tab.locator("#signup-error").inner_text() == expected
        name = unique_name()
        tab.fill("#signup-name", name)
        tab.click("#signup-form button[type='submit']")
        tab.wait_for_selector(f"body[data-account='{name}']")
        assert tab.locator("#settings-heading").inner_text() == words["yours"]
        assert tab.locator("#sign-out-everywhere").inner_text() == words["signOutEverywhere"]
        assert fits_the_width(tab)
        assert not tab.problems, tab.problems
    finally:
        tab.context.close()


def test_a_new_password_and_deleting_the_account_by_the_page(browser: Any, server: ServerProcess) -> None:
    tab = new_tab(browser, **LAPTOP)
    try:
        name = unique_name()
        sign_up_by_page(tab, server, name)
        tab.click("text=Change password")
        tab.fill("#password-current", PASSWORD)
        tab.fill("#password-new", "my second password")
        tab.click("#password-form button[type='submit']")
        tab.wait_for_selector("#settings-result:text('Your password is changed')")
        tab.on("dialog", lambda dialog: dialog.accept())
        tab.click("text=Delete my account >> nth=0")
        tab.fill("#delete-password", PASSWORD)
        tab.click("#delete-form button[type='submit']")
        tab.wait_for_selector("#delete-error:text('This is not your password.')")
        tab.fill("#delete-password", "my second password")
        tab.click("#delete-form button[type='submit']")
        tab.wait_for_url(f"{server.url}/")
        tab.wait_for_selector("#account-slot[data-signed-in='false']")
        assert not tab.problems, tab.problems
    finally:
        tab.context.close()


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "390"])
def test_no_serious_axe_violations_on_the_account_pages(
    browser: Any, server: ServerProcess, viewport: Viewport
) -> None:
    tab = new_tab(browser, **viewport)
    try:
        tab.goto(f"{server.url}/account")
        tab.wait_for_selector("body[data-ready='true']")
        tab.click("#forgot summary")
        assert_no_serious_axe_violations(tab)
        sign_up_by_page(tab, server, unique_name())
        for summary in tab.locator("#settings-panel .account-more summary").all():
            summary.click()
        assert_no_serious_axe_violations(tab)
        tab.goto(f"{server.url}/")
        tab.wait_for_selector("#account-slot[data-signed-in='true']")
        tab.click("#account-slot summary")
        assert_no_serious_axe_violations(tab)
    finally:
        tab.context.close()


def test_a_signed_in_browser_creates_and_plays_a_game(page: Any, server: ServerProcess) -> None:
    answer = page.request.post(f"{server.url}/api/account/signup",
                               data={"name": unique_name(), "password": PASSWORD})
    assert answer.status == 201
    csrf = answer.json()["csrf"]
    sent: list[tuple[str, str | None]] = []
    page.on("request", lambda request: sent.append((request.method, request.headers.get("x-csrf-token"))))
    open_lobby(page, server.url, "tictactoe")
    set_seat(page, 0, "person")
    set_seat(page, 1, "bot", level="custom", bot="random")
    create_table(page)
    page.click("a.play-link[data-seat='0']")
    page.wait_for_selector("body[data-your-turn='true'][data-busy='false']")
    page.locator("svg#board .target").first.click()
    page.wait_for_selector("body:not([data-move-number='0'])")
    changes = [token for method, token in sent if method == "POST"]
    assert changes and all(token == csrf for token in changes)  # every change went with the token
    assert not page.problems, page.problems


def test_the_sign_up_helper_and_the_page_share_the_session(browser: Any, server: ServerProcess) -> None:
    with sign_up(server) as player:
        tab = new_tab(browser, **LAPTOP)
        try:
            tab.context.add_cookies([{"name": "eixample_session", "value": player.session_id,
                                      "url": server.url}])
            tab.goto(f"{server.url}/account")
            tab.wait_for_selector(f"body[data-account='{player.name}']")
        finally:
            tab.context.close()


def virtual_authenticator(tab: Any) -> Any:
    """Chromium's virtual authenticator in the tab: a passkey device that always says yes."""
    cdp = tab.context.new_cdp_session(tab)
    cdp.send("WebAuthn.enable")
    cdp.send("WebAuthn.addVirtualAuthenticator", {"options": {
        "protocol": "ctap2", "transport": "internal", "hasResidentKey": True, "hasUserVerification": True,
        "isUserVerified": True, "automaticPresenceSimulation": True,
    }})
    return cdp


def test_a_passkey_sign_up_and_sign_in(browser: Any, server: ServerProcess) -> None:
    tab = new_tab(browser, **LAPTOP)
    try:
        virtual_authenticator(tab)
        site = f"http://localhost:{server.port}"  # a relying party is a domain name, never an address
        tab.goto(f"{site}/account")
        tab.wait_for_selector("body[data-ready='true']")
        name = unique_name("Key")
        tab.fill("#signup-name", name)
        tab.click("#passkey-signup")
        tab.wait_for_selector(f"body[data-account='{name}'][data-passkeys='1']")
        assert tab.locator("#password-current-label").is_hidden()  # no password to give
        assert tab.locator("#delete-name-label").evaluate("label => label.hidden") is False  # the name
        tab.click("#passkey-add")  # a second passkey for the same account is refused by the device...
        tab.wait_for_selector("#passkey-error:not(:empty)")  # ...which already holds one (excluded)
        tab.click("#sign-out")
        tab.wait_for_selector("#signin-panel:not([hidden])")
        tab.click("#passkey-signin")
        tab.wait_for_selector(f"body[data-account='{name}']")
        with httpx.Client(base_url=server.url, cookies={COOKIE: tab.context.cookies()[0]["value"]}) as client:
            assert client.get("/api/account").json()["has_password"] is False
        assert not tab.problems, tab.problems
    finally:
        tab.context.close()


def test_a_passkey_added_to_a_password_account_signs_it_in(browser: Any, server: ServerProcess) -> None:
    tab = new_tab(browser, **PHONE)
    try:
        virtual_authenticator(tab)
        site = f"http://localhost:{server.port}"
        tab.goto(f"{site}/account")
        tab.wait_for_selector("body[data-ready='true']")
        name = unique_name()
        tab.fill("#signup-name", name)
        tab.fill("#signup-password", PASSWORD)
        tab.click("#signup-form button[type='submit']")
        tab.wait_for_selector(f"body[data-account='{name}'][data-passkeys='0']")
        tab.click("#passkey-add")
        tab.wait_for_selector("body[data-passkeys='1']")
        assert fits_the_width(tab)
        screenshot(tab, "account-passkeys-390.png")
        tab.click("#sign-out")
        tab.wait_for_selector("#signin-panel:not([hidden])")
        tab.click("#passkey-signin")
        tab.wait_for_selector(f"body[data-account='{name}']")
        assert not tab.problems, tab.problems
    finally:
        tab.context.close()


def test_mailed_links_open_in_the_account_page(browser: Any, tmp_path: Path) -> None:
    with SmtpServer() as smtp:
        server = ServerProcess(tmp_path, env=smtp.env()).start()
        tab = new_tab(browser, **PHONE)
        try:
            name, address = unique_name(), f"{unique_name()}@example.test"
            sign_up_by_page(tab, server, name, email=address)
            assert "not verified yet" in tab.locator("#settings-email").inner_text()
            link = LINK.search(smtp.mailbox.to(address).get_content())
            assert link is not None
            tab.goto(link[0])
            tab.wait_for_selector("#account-note:text('Your e-mail address is verified.')")
            assert "#token" not in tab.url  # the token leaves the address bar
            assert "(verified)" in tab.locator("#settings-email").inner_text()
            tab.click("#sign-out")
            tab.wait_for_selector("#signin-panel:not([hidden])")
            tab.click("#forgot summary")
            tab.fill("#forgot-email", address)
            tab.click("#forgot-form button[type='submit']")
            tab.wait_for_selector("#forgot-result:text('If an account has verified this address')")
            reset = smtp.mailbox.wait_for(lambda m: "password" in str(m["Subject"]))
            link = LINK.search(reset.get_content())
            assert link is not None and link[2] == "reset"
            tab.goto(link[0])
            tab.wait_for_selector("#reset-panel:not([hidden])")
            tab.fill("#reset-password", "a brand new password")
            tab.click("#reset-form button[type='submit']")
            tab.wait_for_selector(f"body[data-account='{name}']")
            assert not tab.problems, tab.problems
        finally:
            tab.context.close()
            server.stop()


def test_a_reset_asked_from_a_french_page_is_mailed_in_french(browser: Any, tmp_path: Path) -> None:
    with SmtpServer() as smtp:
        server = ServerProcess(tmp_path, env=smtp.env()).start()
        tab = new_tab(browser, **LAPTOP, locale="de-DE")  # the browser asks for German; the page is French
        try:
            address = f"{unique_name()}@example.test"
            with sign_up(server, email=address) as player:
                link = LINK.search(smtp.mailbox.to(address).get_content())
                assert link is not None
                assert player.post("/api/account/email/verify", json={"token": link[3]}).status_code == 200
            tab.goto(f"{server.url}/account?lang=fr")
            tab.wait_for_selector("body[data-ready='true']")
            tab.click("#forgot summary")
            tab.fill("#forgot-email", address)
            tab.click("#forgot-form button[type='submit']")
            tab.wait_for_selector(f"#forgot-result:text('{account_words('fr')['forgotSent'][:20]}')")
            reset = smtp.mailbox.wait_for(lambda m: "/account/reset#" in m.get_content())
            assert str(reset["Subject"]) == "Eixample : choisissez un nouveau mot de passe"
            assert reset.get_content().startswith("Bonjour ")
            assert not tab.problems, tab.problems
        finally:
            tab.context.close()
            server.stop()
