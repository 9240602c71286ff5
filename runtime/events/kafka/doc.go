// Package kafka is the Kafka transport of the events bus, on franz-go. It is its own Go
// module (github.com/kitdev/kit/runtime/events/kafka), so a service that does not use Kafka
// pulls nothing of it.
//
// Every contract is a topic. A message's ordering key is the record key, so the default
// partitioner puts one key on one partition and the bus handles a key's messages in order;
// its dedup id (WithDedupID) travels in the header kit-id. WithTopicCreation creates missing topics.
//
// A consumed message's Key and Payload share the record's memory (no copy), and a
// published record's key and header values share the message's strings: neither is
// written to. Do not recycle records (franz-go's pools) whose messages are still in use.
//
// # Classic consumer groups (default)
//
// Each group is a Kafka consumer group over its contracts' topics; its members share the
// partitions. Offsets are committed once every record before them is settled, so nothing
// is lost; a retry is redelivered by this member after the delay while the partition's
// commit waits for it. On a rebalance a member finishes (or, past 10s, gives up) the records
// of the partitions it loses before they move. Stop stops fetching and handing records over
// (records fetched and not yet handed over were never committed past: the partition's next
// owner reads them), waits for the handlers within its budget, commits and leaves the
// group, so a graceful stop and restart handles every record once; a record still unsettled
// when the budget ends is redelivered after the restart, with the records after it on its
// partition.
//
// # Share groups (WithShareGroups, KIP-932)
//
// A share group's members fetch from every partition and the broker tracks each record:
// Ack accepts it, a retry holds it for the delay and releases it (the broker redelivers it,
// to any member, with its delivery count raised), Term rejects it. Share groups need Kafka
// 4.2 or later (share.version=1, the default for a new 4.2 cluster; an older cluster
// upgrades with kafka-features.sh upgrade --feature share.version=1) and franz-go 1.21 or
// later. A member fetches its next batch once every record of the current one is settled,
// so a long retry delay stalls that member; delays are capped below the broker's record
// lock duration (group.share.record.lock.duration.ms, 30s by default). Records of a share
// group are not ordered: the ordering key only places a record on a partition. StartAll
// sets the group's share.auto.offset.reset to earliest when it subscribes.
package kafka
