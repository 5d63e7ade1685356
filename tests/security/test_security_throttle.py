"""Login throttling that cannot be turned against the owner (OWASP's device cookies).

A browser that has logged in as a user before holds a signed device cookie naming that user:
its failures count against that cookie alone (5 per window), and an attacker's failures do not
lock it out. Clients without such a cookie ("untrusted") share one allowance per account and one
per address; once the account's is used up, only untrusted clients are locked. The per-address
count does not restart when the attacker logs into an account of his own."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from app.extensions import db
from app.models import LoginAttempt, UserSession
from tests.conftest import DEFAULT_PASSWORD
from tests.security.db_snapshot import unchanged

TOO_MANY = "Too many failed login attempts"
ATTACKER = "198.51.100.7"
CLUB = "203.0.113.9"


def _post(client: FlaskClient, name: str, password: str, ip: str = CLUB) -> Any:
    return client.post(
        "/account/login",
        data={"username": name, "password": password},
        environ_base={"REMOTE_ADDR": ip},
    )


def _ok(r: Any) -> bool:
    return r.status_code == 302 and "/account/login" not in r.headers["Location"]


def _refused(r: Any) -> bool:
    return r.status_code == 422 and TOO_MANY in r.get_data(as_text=True)


def _sessions() -> int:
    db.session.expire_all()
    return db.session.scalar(select(func.count(UserSession.id))) or 0


def _device_login(app: Flask, name: str, ip: str = CLUB) -> FlaskClient:
    """A browser that logs in as ``name`` once and out again: it keeps its device cookie."""
    client = app.test_client()
    assert _ok(_post(client, name, DEFAULT_PASSWORD, ip))
    cookie = client.get_cookie("device", path="/account")
    assert cookie is not None and cookie.http_only
    client.post("/account/logout")
    return client


def _attack(name: str, times: int, ip: str = ATTACKER, client: FlaskClient | None = None) -> Any:
    from flask import current_app

    client = client or current_app.test_client()
    r = None
    for i in range(times):
        r = _post(client, name, f"guess number {i}", ip)
        assert r.status_code == 422
    return r


def test_an_attacker_cannot_lock_the_owner_out(app: Flask, make_user) -> None:
    make_user("director")
    laptop = _device_login(app, "director")
    limit = app.config["LOGIN_MAX_FAILURES_PER_NAME"]
    last = _attack("director", limit + 3)
    assert _refused(last)
    # untrusted clients are locked, even with the right password, from any address
    sessions = _sessions()
    with unchanged():  # the right password, refused: not a row changes (nor a session)
        assert _refused(_post(app.test_client(), "director", DEFAULT_PASSWORD, "192.0.2.1"))
    assert _sessions() == sessions
    # the owner's own browser logs in
    assert _ok(_post(laptop, "director", DEFAULT_PASSWORD))
    assert _sessions() == sessions + 1


def test_a_trusted_device_has_its_own_allowance(app: Flask, make_user) -> None:
    make_user("owner")
    laptop = _device_login(app, "owner")
    phone = _device_login(app, "owner")
    per_device = app.config["LOGIN_MAX_FAILURES_PER_DEVICE"]
    per_name = app.config["LOGIN_MAX_FAILURES_PER_NAME"]
    _attack("owner", per_device, CLUB, client=laptop)  # the laptop's own allowance, used up
    db.session.expire_all()
    counted = db.session.scalars(
        select(LoginAttempt.device).where(LoginAttempt.succeeded.is_(False))
    ).all()
    assert len(counted) == per_device and all(counted)  # counted per device cookie
    # beyond its allowance the laptop is one more untrusted client
    _attack("owner", per_name, CLUB, client=laptop)
    assert _refused(_post(laptop, "owner", DEFAULT_PASSWORD))
    assert _refused(_post(app.test_client(), "owner", DEFAULT_PASSWORD))
    # the phone, another trusted device, is not locked out
    assert _ok(_post(phone, "owner", DEFAULT_PASSWORD))


def test_a_device_cookie_counts_only_for_its_own_user(app: Flask, make_user) -> None:
    make_user("victim")
    make_user("mallory")
    mallory = _device_login(app, "mallory", ATTACKER)  # his own account, his own cookie
    per_name = app.config["LOGIN_MAX_FAILURES_PER_NAME"]
    last = _attack("victim", per_name + 2, client=mallory)
    assert _refused(last)
    db.session.expire_all()
    devices = db.session.scalars(
        select(LoginAttempt.device).where(LoginAttempt.username == "victim")
    ).all()
    assert devices and not any(devices)  # all untrusted attempts


def test_a_forged_device_cookie_is_untrusted(app: Flask, make_user) -> None:
    make_user("ruth")
    laptop = _device_login(app, "ruth")
    cookie = laptop.get_cookie("device", path="/account")
    assert cookie is not None
    forger = app.test_client()
    forged = cookie.value[:-3] + ("AAA" if not cookie.value.endswith("AAA") else "BBB")
    forger.set_cookie("device", forged, path="/account")
    per_name = app.config["LOGIN_MAX_FAILURES_PER_NAME"]
    _attack("ruth", per_name, client=forger)
    assert _refused(_post(forger, "ruth", DEFAULT_PASSWORD))
    assert _ok(_post(laptop, "ruth", DEFAULT_PASSWORD))


def test_the_address_limit_survives_the_attackers_own_login(app: Flask, make_user) -> None:
    app.config["LOGIN_MAX_NAMES_PER_IP"] = 4
    make_user("mallory")
    for name in ("amy", "bob", "cid"):
        make_user(name)
    attacker = app.test_client()
    for name, times in (("amy", 2), ("bob", 2), ("cid", 1)):
        _attack(name, times, client=attacker)  # 3 accounts, at most 2 failures each
    assert _ok(_post(attacker, "mallory", DEFAULT_PASSWORD, ATTACKER))  # his own account
    attacker.post("/account/logout")
    fresh = app.test_client()  # a new browser, same address
    _attack("dora", 1, client=fresh)  # a 4th account tried from this address: the limit
    assert _refused(_post(fresh, "amy", DEFAULT_PASSWORD, ATTACKER))
    assert _refused(_post(fresh, "dan", "anything at all", ATTACKER))
    # another address is not affected
    assert _ok(_post(app.test_client(), "amy", DEFAULT_PASSWORD, "192.0.2.44"))


def test_a_trusted_device_is_not_locked_by_its_address(app: Flask, make_user) -> None:
    """The whole club shares an address: guessing from it does not shut the director out."""
    app.config["LOGIN_MAX_NAMES_PER_IP"] = 4
    make_user("lihua")
    laptop = _device_login(app, "lihua", CLUB)
    for name in ("x1", "x2", "x3", "x4"):
        _attack(name, 1, CLUB)
    assert _refused(_post(app.test_client(), "lihua", DEFAULT_PASSWORD, CLUB))
    assert _ok(_post(laptop, "lihua", DEFAULT_PASSWORD, CLUB))


def test_a_room_of_mistyping_players_locks_no_one_else_out(app: Flask, make_user) -> None:
    """A venue shares one address: 8 players mistype their own passwords 4 times each (32
    failures, no account locked). A player whose own account nobody mistyped still gets in
    from a new browser, with the right password; the 8 accounts each get in too once right."""
    names = [f"p{i}" for i in range(8)]
    for name in [*names, "zhou"]:
        make_user(name)
    for name in names:
        _attack(name, app.config["LOGIN_MAX_FAILURES_PER_NAME"] - 1, CLUB)
    assert _ok(_post(app.test_client(), "zhou", DEFAULT_PASSWORD, CLUB))
    assert _ok(_post(app.test_client(), "p3", DEFAULT_PASSWORD, CLUB))
    # one more typo on p5 locks p5 alone
    _attack("p5", 1, CLUB)
    assert _refused(_post(app.test_client(), "p5", DEFAULT_PASSWORD, CLUB))
    assert _ok(_post(app.test_client(), "p6", DEFAULT_PASSWORD, CLUB))


def test_a_spray_over_many_accounts_is_stopped_at_the_address(app: Flask, make_user) -> None:
    make_user("quinn")
    limit = app.config["LOGIN_MAX_NAMES_PER_IP"]
    for i in range(limit):
        _attack(f"victim{i}", 1)  # one guess each at many accounts
    assert _refused(_post(app.test_client(), "quinn", DEFAULT_PASSWORD, ATTACKER))
    assert _ok(_post(app.test_client(), "quinn", DEFAULT_PASSWORD, CLUB))


def test_the_refusal_reads_in_chinese(app: Flask, make_user) -> None:
    make_user("wang")
    client = app.test_client()
    client.post("/lang", data={"lang": "zh"})
    _attack("wang", app.config["LOGIN_MAX_FAILURES_PER_NAME"], client=client)
    r = _post(client, "wang", DEFAULT_PASSWORD)
    assert r.status_code == 422 and "登录失败次数过多" in r.get_data(as_text=True)
