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
