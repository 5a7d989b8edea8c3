"""No phone holds the table's write lock while it waits on the network or on a hash: a phone
sending its hand a byte at a time, or a burst of wrong passcodes, never makes another phone's
save wait. Tried against the real servers (cheroot over HTTPS, waitress over HTTP)."""

from __future__ import annotations

import http.client
import socket
import statistics
import threading
import urllib.parse

from scorekeeper.db import access
from scorekeeper.extensions import db
from scorekeeper.web import passcode
from tests.helpers import (
    P,
    Phone,
    hand_data,
    make_app,
    serve,
    start_game,
    start_https,
    stop,
    trusting,
)


def test_a_phone_sending_its_hand_slowly_never_holds_another_phones_save(tmp_path):
    database = tmp_path / "https.sqlite"
    app = make_app(database)
    game_id = start_game(app.test_client(), P)
    with app.app_context():
        db.engine.dispose()
    folder = tmp_path / "tls"
    process, port, _ = start_https(tmp_path, folder)
    context = trusting(folder / "ca.crt")
    phone = Phone(lambda: http.client.HTTPSConnection("localhost", port, timeout=30,
                                                      context=context))
    slow_phone = Phone(phone.connect)
    body = urllib.parse.urlencode(hand_data(P, "Ben", {"Ann": 3, "Cy": 3}, number=1)
                                  | {"csrf_token": slow_phone.token(
                                      f"/games/{game_id}/hands/new")}).encode()
    cookie = "; ".join(f"{k}={v}" for k, v in slow_phone.cookies.items())
    stop_sending, sending = threading.Event(), threading.Event()

    def trickle() -> None:
        """Send the headers, then the body a byte every 0.3 s until told to stop; say when
        the first byte of the body has gone."""
        with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
            with context.wrap_socket(raw, server_hostname="localhost") as conn:
                conn.sendall(
                    f"POST /games/{game_id}/hands/new HTTP/1.1\r\nHost: localhost\r\n"
                    f"Content-Type: application/x-www-form-urlencoded\r\n"
                    f"Cookie: {cookie}\r\nContent-Length: {len(body)}\r\n\r\n".encode())
                for byte in body:
                    if stop_sending.wait(0.3):
                        return
                    conn.sendall(bytes([byte]))
                    sending.set()

    slow = threading.Thread(target=trickle, daemon=True)
    try:
        slow.start()
        assert sending.wait(30)  # the slow phone's request is in, its body still coming
        took = phone.save_hands(game_id, (1, 2, 3))
        # Before, the slow phone held SQLite's write lock: each save waited 10 s, then 500.
        assert statistics.median(took) <= 1.0, took
        assert slow.is_alive()  # it was still sending all along
    finally:
        stop_sending.set()
        slow.join(5)
        stop(process)


def test_a_burst_of_wrong_passcodes_never_holds_another_phones_save(tmp_path, monkeypatch):
    app = make_app(tmp_path / "guesses.sqlite", csrf=True)
    app.config["WTF_CSRF_ENABLED"] = False
    game_id = start_game(app.test_client(), P)
    app.config["WTF_CSRF_ENABLED"] = True
    with app.app_context():
        passcode.store("four 4 Zoë")
        db.session.commit()
    hashing, real = threading.Event(), access.check_password_hash

    def watched(hashed: str, typed: str) -> bool:
        hashing.set()
        return real(hashed, typed)

    server, base = serve(app, threads=8)
    port = int(base.rsplit(":", 1)[1])
    phone = Phone(lambda: http.client.HTTPConnection("127.0.0.1", port, timeout=60))
    try:
        unlocked, _ = phone.send("POST", "/unlock", {
            "unlock_passcode": "four 4 Zoë", "unlock_next": "/",
            "csrf_token": phone.token(f"/games/{game_id}")})
        assert unlocked == 303
        alone = [phone.save(game_id, number)[1] for number in (1, 2)]
        guessers = [Phone(phone.connect) for _ in range(8)]
        tokens = [g.token(f"/games/{game_id}") for g in guessers]
        barrier = threading.Barrier(9)
        answers: list[int] = []

        def guess(n: int) -> None:
            barrier.wait()
            status, _ = guessers[n].send("POST", "/unlock", {
                "unlock_passcode": f"wrong guess {n}", "unlock_next": "/",
                "csrf_token": tokens[n]})
            answers.append(status)

        monkeypatch.setattr(access, "check_password_hash", watched)
        threads = [threading.Thread(target=guess, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        barrier.wait()
        assert hashing.wait(30)  # the guesses are in, being hashed
        during = [phone.save(game_id, number) for number in (3, 4)]
        for thread in threads:
            thread.join(60)
        assert sorted(answers) == [401] * 5 + [429] * 3  # counted before they were checked
        assert [status for status, _ in during] == [302, 302]
        # Before, each wrong guess was hashed inside the write lock: a save took 3.4 s.
        assert max(seconds for _, seconds in during) <= 1.0, (alone, during)
    finally:
        server.close()
        with app.app_context():
            db.engine.dispose()


def test_no_scrypt_runs_while_a_write_lock_is_held(tmp_path, monkeypatch):
    """The unlock form hashes the passcode before it takes the lock to remember the phone."""
    app = make_app(tmp_path / "order.sqlite")
    with app.app_context():
        passcode.store("four 4 Zoë")
        db.session.commit()
    seen: list[bool] = []
    real = access.check_password_hash

    def watched(hashed: str, typed: str) -> bool:
        seen.append(db.session().in_transaction() and bool(
            db.session.connection().get_execution_options().get("write_lock")))
        return real(hashed, typed)

    monkeypatch.setattr(access, "check_password_hash", watched)
    client = app.test_client()
    answer = client.post("/unlock", data={"unlock_passcode": "four 4 Zoë", "unlock_next": "/"})
    assert answer.status_code == 303 and seen == [False]
    with app.app_context():
        db.engine.dispose()
