/* SPDX-License-Identifier: MIT */
#pragma once

/*
 * Real cxl:* trace lines, shared by the tests that read them: printed by
 * Linux 7.3.4 (Debian trixie-backports) in the VM rig's CXL boot
 * (tests/vm/scenarios/65, 2026-11-28) for events QEMU 10.0's cxl-type3
 * device reported.  Each test file uses some of them.
 */

static const char cxl_line_general_media[] __attribute__((unused)) =
	"cxl_general_media: memdev=mem0 host=0000:0d:00.0 serial=0 log=Informational : time=1795836087053225050 uuid=fbcd0a77-c260-417f-85a9-088b1621eba6 len=128 flags='0x1' handle=1 related_handle=0 maint_op_class=0 maint_op_sub_class=0 ld_id=0 head_id=0 : dpa=1000 dpa_flags='' descriptor='UNCORRECTABLE_EVENT|THRESHOLD_EVENT' type='TE State Violation' sub_type='Not Reported' transaction_type='Host Read' channel=3 rank=1 device=5 validity_flags='CHANNEL|RANK|DEVICE|COMPONENT' comp_id=69 72 61 73 20 6d 65 6d 00 00 00 00 00 00 00 00 comp_id_pldm_valid_flags='PLDM Entity ID | 0x68' pldm_entity_id=0x00 pldm_resource_id=0x00 hpa=ffffffffffffffff hpa_alias0=ffffffffffffffff region= region_uuid=00000000-0000-0000-0000-000000000000 cme_threshold_ev_flags='' cme_count=0";
static const char cxl_line_dram[] __attribute__((unused)) =
	"cxl_dram: memdev=mem0 host=0000:0d:00.0 serial=0 log=Warning : time=1795836091520960675 uuid=601dcbb3-9c06-4eab-b8af-4e9bfb5c9624 len=128 flags='0x1' handle=1 related_handle=0 maint_op_class=0 maint_op_sub_class=0 ld_id=0 head_id=0 : dpa=2000 dpa_flags='' descriptor='' type='ECC Error' sub_type='Not Reported' transaction_type='Host Write' channel=2 rank=0 nibble_mask=21 bank_group=1 bank=3 row=1234 column=56 cor_mask=01 00 00 00 00 00 00 00 02 00 00 00 00 00 00 00 03 00 00 00 00 00 00 00 04 00 00 00 00 00 00 00 validity_flags='CHANNEL|RANK|NIBBLE|BANK GROUP|BANK|ROW|COLUMN|CORRECTION MASK' comp_id=00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 comp_id_pldm_valid_flags='' pldm_entity_id=0x00 pldm_resource_id=0x00 hpa=ffffffffffffffff hpa_alias0=ffffffffffffffff region= region_uuid=00000000-0000-0000-0000-000000000000 sub_channel=0 cme_threshold_ev_flags='' cvme_count=0";
static const char cxl_line_memory_module[] __attribute__((unused)) =
	"cxl_memory_module: memdev=mem0 host=0000:0d:00.0 serial=0 log=Failure : time=1795836095412121236 uuid=fe927475-dd59-4339-a586-79bab113b774 len=128 flags='0x1' handle=1 related_handle=0 maint_op_class=0 maint_op_sub_class=0 ld_id=0 head_id=0 : event_type='Life Used Change' event_sub_type='Not Reported' health_status='MAINTENANCE_NEEDED|PERFORMANCE_DEGRADED' media_status='All Data Loss in Event of Power Loss' as_life_used=Warning as_dev_temp=Normal as_cor_vol_err_cnt=Normal as_cor_per_err_cnt=Warning life_used=30 device_temp=-15 dirty_shutdown_cnt=4 cor_vol_err_cnt=5 cor_per_err_cnt=6 validity_flags='' comp_id=00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 comp_id_pldm_valid_flags='' pldm_entity_id=0x00 pldm_resource_id=0x00";
static const char cxl_line_poison[] __attribute__((unused)) =
	"cxl_poison: memdev=mem0 host=0000:0d:00.0 serial=0 trace_type=List region= region_uuid=00000000-0000-0000-0000-000000000000 hpa=0xffffffffffffffff hpa_alias0=0xffffffffffffffff dpa=0x800 dpa_length=0x100 source=Internal flags= overflow_time=0";
