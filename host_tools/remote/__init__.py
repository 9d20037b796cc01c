"""Remote play: two tables play one game through an MQTT broker (docs/remote.md).

- `protocol` the topics and messages, and their checks
- `dealing`  the dealer's games, without MQTT
- `seat`     what one table knows, without MQTT
- `broker`   the connection options and the aiomqtt session, made again when it drops
- `dealer`   `python -m host_tools dealer`
- `table`    `python -m host_tools remote create|join`
- `localbroker` a private Mosquitto on loopback (the tests, the load benchmark)
"""
