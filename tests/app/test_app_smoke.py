from __future__ import annotations


def test_home_anonymous(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "Register" in response.get_data(as_text=True)


def test_register_then_home_lists_no_clubs(client):
    response = client.post(
        "/account/register",
        data={
            "username": "Alice",
            "display_name": "Alice Wu",
            "password": "long enough pw",
            "confirm": "long enough pw",
        },
    )
    assert response.status_code == 302
    page = client.get("/").get_data(as_text=True)
    assert "Alice Wu" in page
    assert "Create a club" in page


def test_security_headers(client):
    response = client.get("/")
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["X-Frame-Options"] == "DENY"
    csp = response.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self';" in csp
    assert "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]


def test_static_htmx_served_locally(client):
    import re

    page = client.get("/").get_data(as_text=True)
    src = re.search(r'src="(/assets/[0-9a-f]{16}/htmx\.min\.js)"', page)
    assert src and "unpkg" not in page and "cdn" not in page.lower()
    response = client.get(src.group(1))
    assert response.status_code == 200 and b"htmx" in response.data[:200]
    response.close()
