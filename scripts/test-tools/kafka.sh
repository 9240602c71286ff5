#!/usr/bin/env bash
# Apache Kafka (KRaft) for the events Kafka transport's conformance run, the showcase's
# end-to-end test and bench/events: the broker's jars from Maven Central, fetched with
# Maven into a cache folder (KIT_KAFKA_HOME, default ~/.cache/kit/kafka-<version>), started
# by tests/brokers.py with the JDK on the machine. Kafka 4.2 enables share groups (KIP-932,
# share.version=1) on a freshly formatted cluster.
set -euo pipefail
VERSION=4.2.1
LOG4J=2.24.3
home="${KIT_KAFKA_HOME:-$HOME/.cache/kit/kafka-$VERSION}"
if [ -f "$home/libs/kafka_2.13-$VERSION.jar" ] && [ -f "$home/.complete" ]; then
    exit 0
fi
command -v mvn >/dev/null && command -v java >/dev/null || { echo "setup: Maven and a JDK are needed for Kafka" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat > "$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.kit</groupId><artifactId>kafka-broker</artifactId><version>1</version>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>$VERSION</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-slf4j2-impl</artifactId><version>$LOG4J</version></dependency>
    <dependency><groupId>org.apache.logging.log4j</groupId><artifactId>log4j-core</artifactId><version>$LOG4J</version></dependency>
    <dependency><groupId>org.slf4j</groupId><artifactId>slf4j-api</artifactId><version>2.0.17</version></dependency>
  </dependencies>
</project>
POM
rm -rf "$home/libs"
mkdir -p "$home"
mvn -q -B -f "$work/pom.xml" dependency:copy-dependencies -DoutputDirectory="$home/libs" -DincludeScope=runtime
touch "$home/.complete"
